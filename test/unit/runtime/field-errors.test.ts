/**
 * Validation errors of unions (validate.ts): a value is judged by the branch it means, not by
 * every branch — by its discriminant when the branches have one (`type`), else by the one branch
 * that fits its type, constants and shape — so a 400 names the fields that are wrong and no more.
 */
import t from 'tap';
import Type from 'typebox';
import { compileSchema, fieldErrors } from '../../../services/runtime/http/validate.js';

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

t.test('no branch or several fit: every branch’s errors stay', async (t) => {
  const none = errorsOf(Selector, { pick: 'some' });
  t.ok(none.length > 1 && none.every((e) => e.path === '/pick'), JSON.stringify(none));
  const both = errorsOf(Selector, { pick: { ids: [1], labels: ['a'] } });
  t.ok(both.some((e) => e.path === '/pick/ids') && both.some((e) => e.path === '/pick/labels'), JSON.stringify(both));
});
