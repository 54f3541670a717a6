/**
 * Issue 6: the parse step (DESIGN §6, spec 4.4): JSON records are their own fields; XML and plain
 * text need the stream's parser; a record the stream cannot parse is dead-lettered with a reason.
 */
import t from 'tap';
import type { IncomingRecord, RecordKind } from '../../../../pipelines/records/envelope.js';
import { createParseStep } from '../../../../pipelines/records/parse.step.js';

const record = (kind: RecordKind, raw: string): IncomingRecord => ({ index: 0, receivedAt: 1000, kind, raw });

t.test('JSON with nothing to look at is passed on as its text, unparsed', async (t) => {
  const parse = createParseStep({}, false);
  const out = parse(record('json', '{"a":1}'));
  t.strictSame(out, { ok: true, value: { fields: undefined, text: '{"a":1}' } });
});

t.test('JSON holding @timestamp, or for a stream that needs fields, is parsed', async (t) => {
  const withTs = createParseStep({}, false)(record('json', '{"@timestamp":"2026-11-21T10:00:00Z","a":1}'));
  t.strictSame(withTs, { ok: true, value: { fields: { '@timestamp': '2026-11-21T10:00:00Z', a: 1 }, text: '{"@timestamp":"2026-11-21T10:00:00Z","a":1}' } });
  const needed = createParseStep({ preprocessor: { drops: ['a'] } }, true)(record('json', '[1,{"a":2}]'));
  t.strictSame(needed, { ok: true, value: { fields: [1, { a: 2 }], text: '[1,{"a":2}]' } });
});

t.test('xml parser: the document becomes an object, attributes prefixed @_ (kept as text), tag values typed', async (t) => {
  const parse = createParseStep({ parser: { type: 'xml' } }, false);
  const out = parse(record('xml', '<?xml version="1.0"?><event sev="2"><host>db-1</host><code>42</code><tag>a</tag><tag>b</tag></event>'));
  t.equal(out.ok, true);
  if (!out.ok) return;
  t.strictSame(out.value.fields, { '?xml': { '@_version': '1.0' }, event: { '@_sev': '2', host: 'db-1', code: 42, tag: ['a', 'b'] } });
  t.equal(out.value.text, undefined, 'no JSON text yet: the preprocessor serialises the fields');
});

t.test('text parser without pattern: {message: <text>}', async (t) => {
  const parse = createParseStep({ parser: { type: 'text' } }, false);
  const text = 'ERROR db-1 disk full\nsecond line';
  t.strictSame(parse(record('text', text)), { ok: true, value: { fields: { message: text } } });
});

t.test('text parser with a pattern: the named groups become fields', async (t) => {
  const parse = createParseStep({ parser: { type: 'text', pattern: '^(?<level>[A-Z]+) (?<host>\\S+) (?<msg>.*)$' } }, false);
  const out = parse(record('text', 'ERROR db-1 disk full'));
  t.strictSame(out, { ok: true, value: { fields: { level: 'ERROR', host: 'db-1', msg: 'disk full' } } });
  t.equal(Object.getPrototypeOf((out as { value: { fields: object } }).value.fields), Object.prototype, 'a plain object (match.groups has a null prototype)');
});

t.test('text parser with a pattern: an optional group that did not take part is undefined', async (t) => {
  const parse = createParseStep({ parser: { type: 'text', pattern: '^(?<a>x)(?<b>y)?' } }, false);
  t.strictSame(parse(record('text', 'x')), { ok: true, value: { fields: { a: 'x', b: undefined } } });
});

t.test('text parser with a pattern: no match is a dead letter naming the pattern', async (t) => {
  const parse = createParseStep({ parser: { type: 'text', pattern: '^(?<level>[A-Z]+):' } }, false);
  const out = parse(record('text', 'lowercase: nope'));
  t.equal(out.ok, false);
  t.match(!out.ok && out.reason, /does not match the stream's pattern \^\(\?<level>\[A-Z\]\+\):/);
});

t.test('missing parser: XML and text records are dead letters with the reason', async (t) => {
  for (const config of [{}, { parser: null }]) {
    const parse = createParseStep(config, false);
    const xml = parse(record('xml', '<a/>'));
    t.strictSame(xml, { ok: false, reason: 'the stream has no xml parser configured for text/xml records' });
    const text = parse(record('text', 'hello'));
    t.strictSame(text, { ok: false, reason: 'the stream has no text parser configured for text/plain records' });
  }
});

t.test('a parser of the other type does not parse: text on an xml stream, xml on a text stream', async (t) => {
  t.strictSame(createParseStep({ parser: { type: 'xml' } }, false)(record('text', 'hello')), {
    ok: false,
    reason: 'the stream has no text parser configured for text/plain records',
  });
  t.strictSame(createParseStep({ parser: { type: 'text' } }, false)(record('xml', '<a/>')), { ok: false, reason: 'the stream has no xml parser configured for text/xml records' });
});

t.test('a JSON record that does not parse (not possible from the ingress) is a dead letter, not a crash', async (t) => {
  const out = createParseStep({}, true)(record('json', '{"@timestamp":'));
  t.equal(out.ok, false);
  t.match(!out.ok && out.reason, /record is not valid JSON/);
});
