/**
 * Issue #30: the event filters `field=value`, `field!=value`, `field~substring` (event-filter.ts),
 * one test per rule of the parser and of the SQL it becomes.
 */
import t from 'tap';
import { FILTER_LIMITS, filterConditions, parseEventFilter } from '../../../../../services/api/streams/event-filter.js';

const parsed = (text: string) => {
  const result = parseEventFilter(text);
  if (!result.ok) throw new Error(`${text}: ${result.reason}`);
  return result.filter;
};
const refused = (text: string): string => {
  const result = parseEventFilter(text);
  if (result.ok) throw new Error(`${text} was taken`);
  return result.reason;
};

t.test('the three operators: = equals, != differs, ~ contains', async (t) => {
  t.same(parsed('host=a'), { path: ['host'], op: '=', value: 'a' });
  t.same(parsed('host!=a'), { path: ['host'], op: '!=', value: 'a' });
  t.same(parsed('msg~disk full'), { path: ['msg'], op: '~', value: 'disk full' });
});

t.test('the first operator splits field from value; the value may hold operators itself', async (t) => {
  t.same(parsed('url~http://x/?a=b'), { path: ['url'], op: '~', value: 'http://x/?a=b' });
  t.same(parsed('expr=a!=b'), { path: ['expr'], op: '=', value: 'a!=b' });
  t.same(parsed('a=b~c'), { path: ['a'], op: '=', value: 'b~c' });
  t.same(parsed('a~b=c'), { path: ['a'], op: '~', value: 'b=c' });
});

t.test('a ! is part of != only right before the =; elsewhere it is part of the field', async (t) => {
  t.same(parsed('a!b=c'), { path: ['a!b'], op: '=', value: 'c' });
  t.same(parsed('a!~c'), { path: ['a!'], op: '~', value: 'c' });
});

t.test('the field is a dotted path, one key per part, taken as written (spaces, quotes)', async (t) => {
  t.same(parsed('labels.env=prod').path, ['labels', 'env']);
  t.same(parsed("a b.it's=x").path, ['a b', "it's"]);
  t.same(parsed('0.1=x').path, ['0', '1'], 'digits are keys too');
  t.same(parsed(`${Array.from({ length: FILTER_LIMITS.parts }, (_, i) => `k${i}`).join('.')}=x`).path.length, FILTER_LIMITS.parts);
});

t.test('= and != take an empty value (a missing or empty field)', async (t) => {
  t.same(parsed('host='), { path: ['host'], op: '=', value: '' });
  t.same(parsed('host!='), { path: ['host'], op: '!=', value: '' });
});

t.test('malformed: no operator', async (t) => {
  t.match(refused('host'), /expected field=value, field!=value or field~substring/);
  t.match(refused(''), /expected/);
});

t.test('malformed: no field before the operator', async (t) => {
  for (const text of ['=a', '!=a', '~a']) t.match(refused(text), /field before the operator is missing/, text);
});

t.test('malformed: an empty part of the path (leading, trailing or doubled dot)', async (t) => {
  for (const text of ['.a=1', 'a.=1', 'a..b=1', '.=1']) t.match(refused(text), /empty part/, text);
});

t.test('malformed: a substring filter without a substring', async (t) => {
  t.match(refused('msg~'), /needs a substring/);
});

t.test('malformed: past the limits of length, parts, part length and value length', async (t) => {
  t.match(refused(`${Array.from({ length: 10 }, () => 'k'.repeat(200)).join('.')}=${'v'.repeat(1000)}`), /longer than 2048 characters/);
  t.match(refused(`${Array.from({ length: FILTER_LIMITS.parts + 1 }, () => 'k').join('.')}=x`), /more than 10 parts/);
  t.match(refused(`${'k'.repeat(FILTER_LIMITS.partLength + 1)}=x`), /longer than 256 characters/);
  t.ok(parseEventFilter(`${'k'.repeat(FILTER_LIMITS.partLength)}=${'v'.repeat(FILTER_LIMITS.valueLength)}`).ok, 'at the limits');
  t.match(refused(`k=${'v'.repeat(FILTER_LIMITS.valueLength + 1)}`), /value is longer than 1024 characters/);
});

t.test('the SQL names no caller text: every path part and value is a bound String parameter', async (t) => {
  const key = "x') OR 1 IN (SELECT 1) --";
  const value = "x') OR 1=1 --";
  const { sql, params } = filterConditions([parsed(`${key}.b=${value}`), parsed(`c~${value}`)]);
  for (const condition of sql) t.notOk(condition.includes(key) || condition.includes(value), condition);
  t.same(params, { f0p0: key, f0p1: 'b', f0v: value, f1p0: 'c', f1v: value });
});

t.test('the SQL of each operator: the field as text (a string as itself, anything else as JSON), compared to the value', async (t) => {
  const text =
    "if(JSONType(payload, {f0p0:String}, {f0p1:String}) = 'String', JSONExtractString(payload, {f0p0:String}, {f0p1:String}), JSONExtractRaw(payload, {f0p0:String}, {f0p1:String}))";
  t.same(filterConditions([parsed('a.b=v')]).sql, [`${text} = {f0v:String}`]);
  t.same(filterConditions([parsed('a.b!=v')]).sql, [`${text} != {f0v:String}`]);
  t.same(filterConditions([parsed('a.b~v')]).sql, [`position(${text}, {f0v:String}) > 0`]);
});

t.test('one condition per filter, in order, with its own parameter names (column and prefix as asked)', async (t) => {
  const { sql, params } = filterConditions([parsed('a=1'), parsed('b=2')], 'body', 'q');
  t.equal(sql.length, 2);
  t.match(sql[0], /^if\(JSONType\(body, \{q0p0:String\}\)/);
  t.match(sql[1], /\{q1v:String\}$/);
  t.same(params, { q0p0: 'a', q0v: '1', q1p0: 'b', q1v: '2' });
  t.same(filterConditions([]), { sql: [], params: {} }, 'no filter, no condition');
});
