/** Issue #15: JSON nested deeper than 64 levels is refused before anything recurses over it. */
import t from 'tap';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../../../../pipelines/records/json-depth.js';

const nested = (levels: number, open = '[', close = ']'): string => open.repeat(levels) + close.repeat(levels);

t.test('64 levels pass, 65 do not, for arrays, objects and a mix', async (t) => {
  t.equal(MAX_JSON_DEPTH, 64);
  t.notOk(jsonNestsDeeperThan(nested(64)));
  t.ok(jsonNestsDeeperThan(nested(65)));
  const objects = (levels: number): string => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
  t.notOk(jsonNestsDeeperThan(objects(64)));
  t.ok(jsonNestsDeeperThan(objects(65)));
  t.ok(jsonNestsDeeperThan('[{"a":' + nested(70) + '}]'));
});

t.test('brackets inside strings, escaped quotes included, do not count', async (t) => {
  t.notOk(jsonNestsDeeperThan(JSON.stringify({ text: '['.repeat(500), quoted: '"[[[[' + '{'.repeat(300) })));
  t.notOk(jsonNestsDeeperThan(JSON.stringify(['\\"' + '['.repeat(200)])));
});

t.test('wide is not deep: many siblings at one level pass', async (t) => {
  t.notOk(jsonNestsDeeperThan(JSON.stringify(Array.from({ length: 10_000 }, (_, i) => ({ i, tags: [i] })))));
});

t.test('a 100 000-level text is answered without recursion', async (t) => {
  t.ok(jsonNestsDeeperThan(nested(100_000)));
});
