/**
 * Issue 6: the ingress's check of a body against its declared type (spec 2.17, 4.4; DESIGN §6).
 * Pure: validateBody alone, one test per media type and per refusal.
 */
import t, { type Test } from 'tap';
import { type BodyCheck, MEDIA_TYPES, validateBody } from '../../../../pipelines/records/validate-body.step.js';

function accepted(t: Test, check: BodyCheck): { kind: string; lines: string[] } {
  t.equal(check.ok, true, check.ok ? 'accepted' : `refused: ${check.reason}`);
  return check.ok ? check : { kind: '', lines: [] };
}
function refused(t: Test, check: BodyCheck): string {
  t.equal(check.ok, false, 'refused');
  return check.ok ? '' : check.reason;
}

t.test('the four media types of spec 2.17, NDJSON also under its two other names, and only those', async (t) => {
  t.strictSame([...MEDIA_TYPES], ['application/json', 'application/x-ndjson', 'application/ndjson', 'application/jsonlines', 'text/xml', 'text/plain']);
});

t.test('application/json: an object is one record, kept as it was sent', async (t) => {
  const body = '{"a":1,"b":"x","@timestamp":"2026-11-21T10:00:00Z"}';
  const ok = accepted(t, validateBody('application/json', body));
  t.equal(ok.kind, 'json');
  t.strictSame(ok.lines, [body]);
});

t.test('application/json: an array is ONE record (as on the reference platform)', async (t) => {
  const ok = accepted(t, validateBody('application/json', '[{"a":1},{"a":2},{"a":3}]'));
  t.equal(ok.lines.length, 1);
  t.strictSame(JSON.parse(ok.lines[0]!), [{ a: 1 }, { a: 2 }, { a: 3 }]);
});

t.test('application/json: scalars are JSON texts too, each one record', async (t) => {
  for (const body of ['42', '"text"', 'true', 'null']) {
    const ok = accepted(t, validateBody('application/json', body));
    t.strictSame(ok.lines, [body], body);
  }
});

t.test('application/json: pretty-printed JSON folds to one line with the same value', async (t) => {
  const value = { a: 1, nested: { list: [1, 2, { deep: 'x y' }] }, '@timestamp': '2026-11-21T10:00:00.123+02:00' };
  for (const body of [JSON.stringify(value, null, 2), JSON.stringify(value, null, '\t').replace(/\n/g, '\r\n'), `\n\n${JSON.stringify(value)}\r\n`]) {
    const ok = accepted(t, validateBody('application/json', body));
    t.equal(ok.lines.length, 1);
    t.notMatch(ok.lines[0]!, /[\r\n]/, 'no newline left');
    t.strictSame(JSON.parse(ok.lines[0]!), value, 'same value after folding');
  }
});

t.test('application/json: a string holding an escaped newline is untouched', async (t) => {
  const body = '{"msg":"line1\\nline2"}';
  const ok = accepted(t, validateBody('application/json', body));
  t.strictSame(ok.lines, [body]);
  t.equal(JSON.parse(ok.lines[0]!).msg, 'line1\nline2');
});

t.test('application/json: invalid JSON is refused', async (t) => {
  for (const body of ['{"a":', '{a:1}', "{'a':1}", '{"a":1}{"b":2}', '{"a":1}\n{"b":2}', 'not json', '[1,2,]']) {
    const reason = refused(t, validateBody('application/json', body));
    t.match(reason, /not valid JSON/, body);
  }
});

t.test('application/json: an empty or blank body is refused', async (t) => {
  for (const type of MEDIA_TYPES) {
    t.match(refused(t, validateBody(type, '')), /empty/, `${type} empty`);
    t.match(refused(t, validateBody(type, ' \r\n\t ')), /empty/, `${type} blank`);
  }
});

t.test('@timestamp: an ISO 8601 date-time is accepted in its forms', async (t) => {
  for (const ts of [
    '2026-11-21T10:00:00Z',
    '2026-11-21T10:00Z',
    '2026-11-21T10:00:00.123Z',
    '2026-11-21T10:00:00.123456789Z',
    '2026-11-21T10:00:00+02:00',
    '2026-11-21T10:00:00-0530',
  ]) {
    accepted(t, validateBody('application/json', JSON.stringify({ '@timestamp': ts })));
    accepted(t, validateBody('application/x-ndjson', JSON.stringify({ '@timestamp': ts })));
  }
});

t.test('@timestamp: anything else refuses the body with 400', async (t) => {
  for (const ts of ['2026-11-21', '2026-11-21 10:00:00Z', '2026-11-21T10:00:00', 'yesterday', 1763719200000, '', null, true, { at: 1 }]) {
    const reason = refused(t, validateBody('application/json', JSON.stringify({ a: 1, '@timestamp': ts })));
    t.equal(reason, `@timestamp is not an ISO 8601 date-time with a time zone (e.g. 2026-11-21T10:00:00Z): ${JSON.stringify(ts)}`, JSON.stringify(ts));
  }
});

t.test('@timestamp: only a top-level field of an object counts (an array is one record of its own)', async (t) => {
  accepted(t, validateBody('application/json', '[{"@timestamp":"bad"}]'));
  accepted(t, validateBody('application/json', '{"inner":{"@timestamp":"bad"}}'));
});

t.test('application/x-ndjson: one record per non-empty line; \\r\\n and blank lines are fine', async (t) => {
  const body = '{"n":1}\r\n\r\n{"n":2}\n   \n{"n":3,"@timestamp":"2026-11-21T10:00:00Z"}\r\n\n';
  const ok = accepted(t, validateBody('application/x-ndjson', body));
  t.equal(ok.kind, 'json');
  t.strictSame(ok.lines, ['{"n":1}', '{"n":2}', '{"n":3,"@timestamp":"2026-11-21T10:00:00Z"}'], 'CR stripped, blank lines skipped');
});

t.test('application/x-ndjson: a single line without a final newline is one record', async (t) => {
  const ok = accepted(t, validateBody('application/x-ndjson', '[1,2,3]'));
  t.strictSame(ok.lines, ['[1,2,3]']);
});

t.test('application/x-ndjson: one bad line refuses the whole body and names the line', async (t) => {
  const body = '{"n":1}\n{"n":2}\n\n{"n":3\n{"n":4}\n';
  const reason = refused(t, validateBody('application/x-ndjson', body));
  t.match(reason, /^Line 4 is not valid JSON/, 'the 4th physical line (blank lines count)');
  const crlf = refused(t, validateBody('application/x-ndjson', '{"n":1}\r\n{oops}\r\n'));
  t.match(crlf, /^Line 2 /);
});

t.test('application/x-ndjson: a pretty-printed object is not NDJSON', async (t) => {
  const reason = refused(t, validateBody('application/x-ndjson', JSON.stringify({ a: 1, b: 2 }, null, 2)));
  t.match(reason, /^Line 1 is not valid JSON/);
});

t.test('application/x-ndjson: a bad @timestamp on one line refuses the body naming the line', async (t) => {
  const body = '{"@timestamp":"2026-11-21T10:00:00Z"}\n{"@timestamp":"2026-11-21T10:00:00Z"}\n{"@timestamp":"21.11.2026"}\n';
  const reason = refused(t, validateBody('application/x-ndjson', body));
  t.equal(reason, 'Line 3: @timestamp is not an ISO 8601 date-time with a time zone (e.g. 2026-11-21T10:00:00Z): "21.11.2026"');
});

t.test('text/xml: a well-formed document is one record, carried as a JSON string', async (t) => {
  const xml = '<?xml version="1.0"?>\n<event sev="2">\n  <host>db-1</host>\n  <msg>disk &amp; cpu</msg>\n</event>\n';
  const ok = accepted(t, validateBody('text/xml', xml));
  t.equal(ok.kind, 'xml');
  t.equal(ok.lines.length, 1);
  t.notMatch(ok.lines[0]!, /\n/, 'the envelope line holds no raw newline');
  t.equal(JSON.parse(ok.lines[0]!), xml, 'the document travels unchanged');
});

t.test('text/xml: a document that is not well-formed is refused', async (t) => {
  for (const body of ['<a><b></a>', '<a>', '<a x=1/>', '<a></a><', 'plain text <', '<a>&bogus</a>']) {
    const reason = refused(t, validateBody('text/xml', body));
    t.match(reason, /not well-formed XML/, body);
  }
});

t.test('text/plain: any text is one record, multi-line included', async (t) => {
  const text = 'ERROR db-1 disk full\nsecond line\r\n\tthird: {"not":"json"';
  const ok = accepted(t, validateBody('text/plain', text));
  t.equal(ok.kind, 'text');
  t.equal(ok.lines.length, 1);
  t.notMatch(ok.lines[0]!, /[\r\n]/);
  t.equal(JSON.parse(ok.lines[0]!), text);
});

t.test('text/plain: unicode and control characters survive the envelope encoding', async (t) => {
  const text = 'Ünïcödé ✓ \u0001 \u2028 \u2029 "quoted" \\ back';
  const ok = accepted(t, validateBody('text/plain', text));
  t.equal(JSON.parse(ok.lines[0]!), text);
});

// Framing (issue #14, DESIGN §6): where records begin, chosen per stream.

t.test('framing elements: a top-level JSON array is one record per element (collectd write_http JSON)', async (t) => {
  const collectd = '[{"values":[0.5],"plugin":"cpu","host":"db-1"},{"values":[12],"plugin":"memory","host":"db-1"}]';
  const ok = accepted(t, validateBody('application/json', collectd, 'elements'));
  t.strictSame(
    ok.lines.map((l) => JSON.parse(l).plugin),
    ['cpu', 'memory'],
  );
  t.strictSame(accepted(t, validateBody('application/json', '{"a":1}', 'elements')).lines, ['{"a":1}'], 'any other JSON text is one record');
  t.strictSame(accepted(t, validateBody('application/json', '[]', 'elements')).lines, [], 'an empty array holds no record');
});

t.test('framing elements: each NDJSON line that is an array gives its elements', async (t) => {
  const ok = accepted(t, validateBody('application/x-ndjson', '[{"n":1},{"n":2}]\n{"n":3}\n', 'elements'));
  t.strictSame(
    ok.lines.map((l) => JSON.parse(l).n),
    [1, 2, 3],
  );
});

t.test('framing elements: an element with a bad @timestamp refuses the body naming the element', async (t) => {
  const reason = refused(t, validateBody('application/json', '[{"@timestamp":"2026-11-21T10:00:00Z"},{"@timestamp":"nope"}]', 'elements'));
  t.match(reason, /^Element 2: @timestamp is not/);
  t.match(refused(t, validateBody('application/x-ndjson', '{}\n[{},{"@timestamp":"nope"}]', 'elements')), /^Line 2, element 2: @timestamp is not/);
});

t.test('framing lines: plain text is one record per non-empty line (collectd PUTVAL commands)', async (t) => {
  const body = 'PUTVAL "db-1/cpu-0/cpu-idle" interval=10 N:98\r\nPUTVAL "db-1/load/load" interval=10 N:0.5:0.4:0.3\n\nPUTVAL "db-1/memory/memory-used" N:1234\n';
  const ok = accepted(t, validateBody('text/plain', body, 'lines'));
  t.equal(ok.kind, 'text');
  t.strictSame(
    ok.lines.map((l) => JSON.parse(l)),
    ['PUTVAL "db-1/cpu-0/cpu-idle" interval=10 N:98', 'PUTVAL "db-1/load/load" interval=10 N:0.5:0.4:0.3', 'PUTVAL "db-1/memory/memory-used" N:1234'],
  );
});

t.test('framing lines: a JSON body is read as NDJSON (syslog-ng batches sent as application/json)', async (t) => {
  const ok = accepted(t, validateBody('application/json', '{"n":1}\n{"n":2}\n', 'lines'));
  t.strictSame(ok.lines, ['{"n":1}', '{"n":2}']);
  t.match(refused(t, validateBody('application/json', '{"n":1}\n{oops\n', 'lines')), /^Line 2 is not valid JSON/);
});

t.test('framing: XML is one record whatever the framing; body framing keeps arrays whole', async (t) => {
  for (const framing of ['body', 'elements', 'lines'] as const) t.equal(accepted(t, validateBody('text/xml', '<a/>\n<!-- x -->', framing)).lines.length, 1, framing);
  t.equal(accepted(t, validateBody('application/json', '[1,2]', 'body')).lines.length, 1);
  t.equal(accepted(t, validateBody('text/plain', 'a\nb', 'body')).lines.length, 1);
});

t.test('NDJSON under its other names: application/ndjson and application/jsonlines', async (t) => {
  for (const type of ['application/ndjson', 'application/jsonlines'] as const) {
    t.strictSame(accepted(t, validateBody(type, '{"n":1}\n{"n":2}')).lines, ['{"n":1}', '{"n":2}'], type);
  }
});

t.test('a slice of a line-framed body names lines of the whole body', async (t) => {
  t.match(refused(t, validateBody('application/x-ndjson', '{}\n{bad', 'body', 1001)), /^Line 1002 /);
});

t.test('@timestamp: a day that does not exist, or a year the event table cannot hold, refuses the body saying which', async (t) => {
  const noDay = 'names a day that does not exist';
  const noTime = 'has an hour, minute, second or zone offset out of range';
  const outside = 'is outside the years 1900 to 2299 (UTC) that event dates can take';
  const cases: Array<[string, string]> = [
    ['2026-02-30T00:00:00Z', noDay],
    ['2025-02-29T00:00:00Z', noDay],
    ['1900-02-29T00:00:00Z', noDay],
    ['2026-04-31T00:00:00Z', noDay],
    ['2026-13-45T10:00:00Z', noDay],
    ['0000-01-01T00:00:00Z', outside],
    ['1899-12-31T23:59:59Z', outside],
    ['2300-01-01T00:00:00Z', outside],
    ['2400-01-01T00:00:00Z', outside],
    ['2299-12-31T23:00:00-05:00', outside],
    ['2026-11-21T24:00:00Z', noTime],
    ['2026-11-21T10:60:00Z', noTime],
    ['2026-11-21T10:00:60Z', noTime],
    ['2026-11-21T10:00:00+25:00', noTime],
  ];
  for (const [ts, what] of cases) {
    t.equal(refused(t, validateBody('application/x-ndjson', `{}\n${JSON.stringify({ '@timestamp': ts })}`)), `Line 2: @timestamp ${what}: "${ts}"`, ts);
  }
  for (const ts of ['2024-02-29T00:00:00Z', '2000-02-29T00:00:00Z', '1900-01-01T00:00:00Z', '2299-12-31T23:59:59.999Z', '2026-12-31T23:59:59+14:00']) {
    accepted(t, validateBody('application/json', JSON.stringify({ '@timestamp': ts })));
  }
});
