/** `ops tokens …`: personal API tokens of a user (admin API /users/:id/tokens). */
import { list, one } from '../render.js';
import { defined, type NounSpec, type Render, seg, send, str } from '../spec.js';
import { isRecord, printable } from '../table.js';

const USER_ID = { name: 'userId', description: 'The id of the user owning the tokens', kind: 'id' as const };

const columns = { ID: 'id', NAME: 'name', CREATED: 'createdAt', EXPIRES: 'expiresAt', REVOKED: 'revokedAt', 'LAST USED': 'lastUsedAt' };

/** The token's details, then its secret, which the API returns in this answer only. */
export const renderIssued: Render = (data, input) => {
  const details = one('token')(data, input);
  const secret = isRecord(data) && typeof data['token'] === 'string' ? data['token'] : undefined;
  if (secret === undefined) return details;
  return `${details}\nToken secret (shown only now; store it safely, it cannot be shown again):\n\n  ${printable(secret)}\n\n`;
};

export const tokens: NounSpec = {
  name: 'tokens',
  summary: 'Personal API tokens of users',
  commands: [
    {
      verb: 'list',
      summary: "List a user's tokens (never their secrets)",
      args: [USER_ID],
      prepare: (i) => send('GET', `/users/${seg(i.args['userId']!)}/tokens`),
      render: list(columns),
    },
    {
      verb: 'issue',
      summary: 'Issue a token for a user and show its secret once',
      args: [USER_ID],
      options: {
        name: { type: 'string', value: 'name', description: 'A name telling where the token is used' },
        expires: { type: 'string', value: 'iso-date-time', description: 'Expiry, ISO 8601 with offset, e.g. 2030-01-31T00:00:00Z (default: never)' },
      },
      prepare: (i) => send('POST', `/users/${seg(i.args['userId']!)}/tokens`, defined({ name: str(i, 'name'), expiresAt: str(i, 'expires') })),
      render: renderIssued,
    },
    {
      verb: 'revoke',
      summary: 'Revoke a token at once (it stays listed, with its revocation time)',
      args: [USER_ID, { name: 'tokenId', description: 'The token id', kind: 'id' }],
      prepare: (i) => send('DELETE', `/users/${seg(i.args['userId']!)}/tokens/${seg(i.args['tokenId']!)}`),
      render: one(),
    },
  ],
};
