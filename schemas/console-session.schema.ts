/** The console's session endpoint (DESIGN §11): signing in with a personal token, and the session it gives. */
import Type, { type Static } from 'typebox';
import { Id, Name } from './common.schema.js';

export const SessionCreate = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 512, description: 'A personal token (as issued by `POST /api/admin/v1/users/{id}/tokens` or `ops tokens issue`)' }),
  },
  { additionalProperties: false },
);

export const ConsoleSession = Type.Object({
  user: Type.Object({ id: Id, name: Name }),
  rights: Type.Array(Type.String(), { description: 'The platform rights of the user, e.g. base-system.admin' }),
  csrfToken: Type.String({ description: 'Send it in the X-CSRF-Token header with every change (POST, PUT, PATCH, DELETE) made with the session cookie' }),
  idleExpiresAt: Type.String({ description: 'ISO 8601 date-time in UTC: when the session ends if it is not used again (a use moves it, at most once a minute)' }),
  expiresAt: Type.String({ description: 'ISO 8601 date-time in UTC: when the session ends at the latest (OPS_SESSION_MAX_HOURS after sign-in, or the token’s expiry if sooner)' }),
});

export type SessionCreateBody = Static<typeof SessionCreate>;
export type ConsoleSessionModel = Static<typeof ConsoleSession>;

export const sessionCreateExample: SessionCreateBody = { token: 'ops_Vq3n1xXo0s7eQm2lJc9tPz4bRk6wYh8aFd5gUi1LvE0' };
export const consoleSessionExample: ConsoleSessionModel = {
  user: { id: 2, name: 'alice' },
  rights: ['base-system.rsm-maintenance.read', 'base-system.rsm-maintenance.write'],
  csrfToken: 'pM7c2Qx9Lr4Tn0Vb8Kd3Hs6Fw1Zy5Ja2Ge7Uo4Ri9Ec',
  idleExpiresAt: '2026-11-21T10:30:00.000Z',
  expiresAt: '2026-11-21T22:00:00.000Z',
};
