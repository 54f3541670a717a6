/** Issue #34: the bounded parts of the `_bulk` receiver, on the pure parser and answer writer. */
import t from 'tap';
import { bulkAnswerText, bulkSteps, MAX_BULK_ACTIONS, parseBulk } from '../../../../services/ingress/elastic-bulk.route.js';

const id = (n: number): string => `gen-${n}`;

t.test('the answer from templates is what the items as objects would serialise to', async (t) => {
  const body =
    '{"index":{"_index":"logs","_id":7}}\n{"@timestamp":"2026-11-21T10:00:00Z","m":1}\n' +
    '{"create":{}}\n{"m":2}\n' +
    '{"update":{"_id":"u"}}\n{"doc":{"m":3}}\n' +
    '{"delete":{"_index":"old","_id":"gone"}}\n' +
    '{"index":{}}\n{"@timestamp":"yesterday"}\n';
  const parsed = parseBulk(body);
  if (!parsed.ok) throw new Error(parsed.reason);
  t.equal(parsed.records.length, 3);
  t.strictSame(JSON.parse(bulkAnswerText(4, parsed.items, 'default', id)), {
    took: 4,
    errors: true,
    items: [
      { index: { _index: 'logs', _id: '7', status: 201, result: 'created' } },
      { create: { _index: 'default', _id: 'gen-1', status: 201, result: 'created' } },
      { update: { _index: 'default', _id: 'u', status: 200, result: 'updated' } },
      { delete: { _index: 'old', _id: 'gone', status: 200, result: 'noop' } },
      {
        index: {
          _index: 'default',
          _id: 'gen-4',
          status: 400,
          error: { type: 'mapper_parsing_exception', reason: '@timestamp is not an ISO 8601 date-time with a time zone (e.g. 2026-11-21T10:00:00Z): "yesterday"' },
        },
      },
    ],
  });
});

t.test(`more than ${MAX_BULK_ACTIONS} actions: refused whole, naming the cap; the cap itself is taken`, async (t) => {
  const over = parseBulk('{"delete":{}}\n'.repeat(MAX_BULK_ACTIONS + 1));
  t.strictSame(over, { ok: false, reason: `more than ${MAX_BULK_ACTIONS} actions`, tooManyActions: MAX_BULK_ACTIONS });
  const at = parseBulk('{"delete":{}}\n'.repeat(MAX_BULK_ACTIONS));
  t.ok(at.ok && at.items.count === MAX_BULK_ACTIONS && at.items.ids.size === 0 && at.items.errors.size === 0, 'an all-ok body keeps no per-item value');
});

t.test('the parser yields between slices of a large body', async (t) => {
  const steps = bulkSteps('{"index":{}}\n{"m":"x"}\n'.repeat(20_000));
  let yields = 0;
  for (let step = steps.next(); !step.done; step = steps.next()) yields++;
  t.ok(yields > 0, `${yields} yields`);
});

t.test('a document nested deeper than 64 levels gets a 400 item and is not parsed; an action line that deep refuses the body', async (t) => {
  const deep = (n: number) => `{"v":${'['.repeat(n)}1${']'.repeat(n)}}`;
  const parsed = parseBulk(`{"index":{}}\n${deep(5000)}\n{"index":{}}\n${deep(62)}\n`);
  if (!parsed.ok) throw new Error(parsed.reason);
  t.equal(parsed.records.length, 1);
  t.match(parsed.items.errors.get(0), /deeper than 64 levels/);
  t.equal(parsed.items.errors.has(1), false);
  const action = parseBulk(`{"index":${deep(100)}}\n{}\n`);
  t.match(action, { ok: false, reason: /Line 1 is not a bulk action: it nests deeper than 64 levels/ });
});
