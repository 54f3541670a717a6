/** RFC 9457 problem details: the body of every error answer (DESIGN §5). */
import Type, { type Static } from 'typebox';

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'A URN naming the error code, e.g. urn:ops:problem:validation' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'The stable machine code of the error, e.g. ci.not_found (docs/errors.md lists them all)' }),
    errors: Type.Optional(
      Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), {
        description: 'Validation failures, one per offending field',
      }),
    ),
    right: Type.Optional(Type.String({ description: 'A 403 for a missing platform right: the right the request needs (auth.right_missing)' })),
    roles: Type.Optional(
      Type.Array(Type.String(), {
        description: 'With `right`: the roles that grant it, narrowest first; a user holding one of them may make the request',
      }),
    ),
  },
  { $id: 'Problem' },
);

export type Problem = Static<typeof ProblemSchema>;
