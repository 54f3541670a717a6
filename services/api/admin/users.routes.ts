/** Admin API: users and their personal tokens, and `me` for any authenticated caller. */
import Type from 'typebox';
import { Me, Token, TokenCreate, TokenIssued, User, UserCreate, UserPatch } from '../../../schemas/identity.schema.js';
import { createUser, deleteUser, findUser, issueToken, patchUser, revokeToken } from '../../control-plane/identity/identity.commands.js';
import type { TokenRecord, UserRecord } from '../../control-plane/identity/identity.types.js';
import { newTokenSecret } from '../../control-plane/identity/tokens.js';
import type { PlatformModel } from '../../control-plane/model.js';
import { fail } from '../../../schemas/errors.js';
import { defineRoute, json, noContent, type Route } from '../../runtime/http/route.js';
import { ADMIN, ADMIN_PREFIX, type ApiDeps, isoNow } from '../api-deps.js';
import { principal } from '../auth.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';

export const userView = (model: PlatformModel, user: UserRecord) => ({
  ...user,
  workGroupIds: [...model.slices.identity.workGroupsOf(user.id)].sort((a, b) => a - b),
  rights: [...model.slices.identity.rightsOf(user)].sort(),
});

export const tokenView = ({ sha256: _secretDigest, ...token }: TokenRecord) => token;

export function userRoutes(deps: ApiDeps): Route[] {
  const cp = deps.controlPlane;
  const admin = deps.auth.requireRight(ADMIN);
  const base = { tags: ['admin'], security: 'bearer' as const, authenticate: admin };
  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: `${ADMIN_PREFIX}/me`,
      name: 'admin.me',
      summary: 'The caller: its user and the token it used',
      authenticate: deps.auth.authenticate,
      schema: { responses: { 200: { description: 'The caller', schema: Me }, ...problems(401) } },
      handler: (req) => json(200, { user: userView(cp.model, principal(req).user), token: tokenView(principal(req).token) }),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${ADMIN_PREFIX}/users`,
      name: 'admin.listUsers',
      summary: 'List users',
      schema: { responses: { 200: { description: 'Users', schema: Type.Array(User) }, ...problems(401, 403) } },
      handler: () =>
        json(
          200,
          [...cp.model.slices.identity.users.values()].sort((a, b) => a.id - b.id).map((u) => userView(cp.model, u)),
        ),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: `${ADMIN_PREFIX}/users`,
      name: 'admin.createUser',
      summary: 'Create a user, optionally with roles and workgroup memberships',
      schema: { body: UserCreate, responses: { 201: { description: 'Created', schema: User }, ...problems(400, 401, 403, 404, 409, 415) } },
      handler: async (req) => {
        const user = await cp.execute(createUser(req.body, isoNow(deps)));
        return json(201, userView(cp.model, user));
      },
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${ADMIN_PREFIX}/users/:id`,
      name: 'admin.getUser',
      summary: 'One user',
      schema: { responses: { 200: { description: 'The user', schema: User }, ...problems(400, 401, 403, 404) } },
      handler: (req) => json(200, userView(cp.model, findUser(cp.model, parseId(req.params['id'])))),
    }),
    defineRoute({
      ...base,
      method: 'PATCH',
      path: `${ADMIN_PREFIX}/users/:id`,
      name: 'admin.patchUser',
      summary: 'Rename a user, set its roles, or disable it',
      schema: { body: UserPatch, responses: { 200: { description: 'Updated', schema: User }, ...problems(400, 401, 403, 404, 409, 415) } },
      handler: async (req) => json(200, userView(cp.model, await cp.execute(patchUser(parseId(req.params['id']), req.body)))),
    }),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${ADMIN_PREFIX}/users/:id`,
      name: 'admin.deleteUser',
      summary: 'Delete a user with its tokens and memberships',
      schema: { responses: { 204: { description: 'Deleted' }, ...problems(400, 401, 403, 404) } },
      handler: async (req) => {
        const id = parseId(req.params['id']);
        if (id === principal(req).user.id) throw fail('user.delete_self');
        await cp.execute(deleteUser(id));
        return noContent();
      },
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${ADMIN_PREFIX}/users/:id/tokens`,
      name: 'admin.listTokens',
      summary: "List a user's tokens (never their secrets)",
      schema: { responses: { 200: { description: 'Tokens', schema: Type.Array(Token) }, ...problems(400, 401, 403, 404) } },
      handler: (req) => {
        const user = findUser(cp.model, parseId(req.params['id']));
        const tokens = [...cp.model.slices.identity.tokens.values()].filter((t) => t.userId === user.id).sort((a, b) => a.id - b.id);
        return json(200, tokens.map(tokenView));
      },
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: `${ADMIN_PREFIX}/users/:id/tokens`,
      name: 'admin.issueToken',
      summary: 'Issue a personal token; the secret is in this answer only',
      schema: { body: TokenCreate, responses: { 201: { description: 'Issued', schema: TokenIssued }, ...problems(400, 401, 403, 404, 415) } },
      handler: async (req) => {
        const secret = newTokenSecret();
        const token = await cp.execute(issueToken(parseId(req.params['id']), req.body, secret, isoNow(deps)));
        return json(201, { ...tokenView(token), token: secret });
      },
    }),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${ADMIN_PREFIX}/users/:id/tokens/:tokenId`,
      name: 'admin.revokeToken',
      summary: 'Revoke a token (it stays listed, with revokedAt)',
      schema: { responses: { 200: { description: 'Revoked', schema: Token }, ...problems(400, 401, 403, 404) } },
      handler: async (req) => {
        const token = await cp.execute(revokeToken(parseId(req.params['id']), parseId(req.params['tokenId'], 'tokenId', 'token id'), isoNow(deps)));
        return json(200, tokenView(token));
      },
    }),
  ];
}
