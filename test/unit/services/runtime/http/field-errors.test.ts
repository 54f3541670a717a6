/**
 * Validation errors (field-errors.ts, issue #37: errors that say what to do): a value is judged by
 * the branch it means, not by every branch — by its discriminant when the branches have one
 * (`type`, `op`, `by`), wherever the union sits, else by the one branch that fits its type,
 * constants and shape — so a 400 names the fields that are wrong and no more; a value that must be
 * one of a few says which; a pattern the schemas name in words is said in words.
 */
import t from 'tap';
import Type from 'typebox';
import { SlaExportQuery } from '../../../../../schemas/sla-report.schema.js';
import { TriggerCreate } from '../../../../../schemas/trigger.schema.js';
import { compileSchema, fieldErrors } from '../../../../../services/runtime/http/validate.js';

const kinds = ['a', 'b', 'c', 'd', 'e', 'f'] as const;
const Tagged = Type.Union(kinds.map((kind) => Type.Object({ type: Type.Literal(kind), [kind]: Type.Integer({ minimum: 1 }) }, { additionalProperties: false })));
const errorsOf = (schema: Parameters<typeof compileSchema>[0], value: unknown) => fieldErrors(compileSchema(schema), value);

t.test('a discriminated union: the errors of the branch its discriminant names, however many branches', async (t) => {
  t.same(errorsOf(Tagged, { type: 'f' }), [{ path: '/f', message: 'is required' }]);
  t.same(errorsOf(Tagged, { type: 'e', e: 0, a: 1 }), [
    { path: '/a', message: 'is not a known field' },
    { path: '/e', message: 'must be >= 1' },
  ]);
  t.same(errorsOf(Tagged, { type: 'z' }), [{ path: '/type', message: 'must be one of "a", "b", "c", "d", "e", "f"' }]);
  t.same(errorsOf(Tagged, { a: 1 }), [{ path: '/type', message: 'is required' }]);
});

const Selector = Type.Object(
  {
    pick: Type.Union([
      Type.Object({ ids: Type.Array(Type.Integer(), { minItems: 1 }) }, { additionalProperties: false }),
      Type.Object({ labels: Type.Array(Type.String(), { minItems: 1 }) }, { additionalProperties: false }),
      Type.Literal('all'),
    ]),
    limit: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  },
  { additionalProperties: false },
);

t.test('a union without a discriminant: the one branch that fits the value’s type and shape', async (t) => {
  t.same(errorsOf(Selector, { pick: { ids: ['x'] } }), [{ path: '/pick/ids/0', message: 'must be integer' }]);
  t.same(errorsOf(Selector, { pick: { labels: [] } }), [{ path: '/pick/labels', message: 'must not have fewer than 1 items' }]);
  t.same(errorsOf(Selector, { pick: 'all', limit: 0 }), [{ path: '/limit', message: 'must be >= 1' }], 'a nullable field: not "must be null"');
});

t.test('no branch takes the value’s type or value: one error names what it may be', async (t) => {
  t.same(errorsOf(Selector, { pick: 'some' }), [{ path: '/pick', message: 'must be object or "all"' }]);
  t.same(errorsOf(Selector, { pick: 'all', limit: 'ten' }), [{ path: '/limit', message: 'must be integer or null' }]);
});

t.test('several branches fit: every branch’s errors stay', async (t) => {
  const both = errorsOf(Selector, { pick: { ids: [1], labels: ['a'] } });
  t.ok(both.some((e) => e.path === '/pick/ids') && both.some((e) => e.path === '/pick/labels'), JSON.stringify(both));
});

/** A valid trigger body but for `over`. */
const trigger = (over: Record<string, unknown>) => ({
  name: 'disk full',
  streamIds: [1],
  match: [],
  ci: { by: 'fixed', id: 1 },
  priority: { value: 1 },
  resolve: { field: 'status', values: ['ok'] },
  influence: { value: 10, maxInfluence: false },
  ...over,
});

t.test('a union mismatch reports the branch the body meant by its discriminator, wherever the union sits', async (t) => {
  // Every branch of a condition fails `{ op: 'in', value }`: more errors than the validator buffers.
  t.same(errorsOf(TriggerCreate, trigger({ match: [{ field: 'status', op: 'in', value: 'down' }] })), [
    { path: '/match/0/values', message: 'is required' },
    { path: '/match/0/value', message: 'is not a known field' },
  ]);
  t.same(
    errorsOf(
      TriggerCreate,
      trigger({
        match: [
          { field: 'status', op: 'exists' },
          { field: 'msg', op: 'regex' },
        ],
      }),
    ),
    [{ path: '/match/1/pattern', message: 'is required' }],
  );
  t.same(errorsOf(TriggerCreate, trigger({ ci: { by: 'fixed' } })), [{ path: '/ci/id', message: 'is required' }]);
  t.same(errorsOf(TriggerCreate, trigger({ match: [{ field: 'status' }] })), [{ path: '/match/0/op', message: 'is required' }]);
  t.same(errorsOf(TriggerCreate, trigger({ match: ['status'] })), [{ path: '/match/0', message: 'must be object' }]);
});

t.test('an unknown discriminator value is one error naming the allowed values', async (t) => {
  t.same(errorsOf(TriggerCreate, trigger({ match: [{ field: 'status', op: 'equal', value: 'down' }] })), [
    { path: '/match/0/op', message: 'must be one of "equals", "in", "regex", "exists"' },
  ]);
  t.same(errorsOf(TriggerCreate, trigger({ ci: { by: 'name', field: 'host' } })), [{ path: '/ci/by', message: 'must be one of "idField", "nameField", "fixed"' }]);
});

t.test('a union without a discriminant whose branches all lack a field: the one that knows every field the value has', async (t) => {
  t.same(errorsOf(TriggerCreate, trigger({ priority: { field: 'severity', map: { high: 7 } } })), [
    { path: '/priority/default', message: 'is required' },
    { path: '/priority/map/high', message: 'must be <= 4' },
  ]);
});

t.test('enums list the allowed values: literal unions (nullable too), enums and single literals, in bodies and queries', async (t) => {
  const Shape = Type.Object({
    format: Type.Union([Type.Literal('xls'), Type.Literal('csv'), Type.Literal('json')]),
    level: Type.Optional(Type.Union([Type.Union([Type.Literal('low'), Type.Literal('high')]), Type.Null()])),
    unit: Type.Optional(Type.Enum(['ms', 's'])),
    version: Type.Optional(Type.Literal(2)),
  });
  t.same(errorsOf(Shape, { format: 'pdf', level: 'mid', unit: 'h', version: 1 }), [
    { path: '/format', message: 'must be one of "xls", "csv", "json"' },
    { path: '/level', message: 'must be one of "low", "high", null' },
    { path: '/unit', message: 'must be one of "ms", "s"' },
    { path: '/version', message: 'must be 2' },
  ]);
  const query = compileSchema(SlaExportQuery);
  t.same(fieldErrors(query, query.Convert({ format: 'pdf', exportType: 'problems' })), [
    { path: '/format', message: 'must be one of "xls", "csv", "json"' },
    { path: '/exportType', message: 'must be one of "events", "configItems"' },
  ]);
});

t.test('a pattern the schemas name in words says the form, not its regular expression', async (t) => {
  const Token = Type.Object({ expiresAt: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})$' }) });
  t.same(errorsOf(Token, { expiresAt: 'tomorrow' }), [
    { path: '/expiresAt', message: 'must be an ISO 8601 date-time with an offset (Z or ±hh:mm), e.g. 2030-01-31T00:00:00Z or 2030-01-31T09:30:00+01:00' },
  ]);
});
