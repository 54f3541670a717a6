/** `ops tokens …`: personal API tokens of a user (admin API /users/:id/tokens). */
import { list, one } from '../render.js';
import { type CommandInput, defined, type NounSpec, type Prepared, type Render, seg, send, str, usage } from '../spec.js';
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

const HOUR = 3_600_000;
const UNITS: Readonly<Record<string, number>> = { h: HOUR, d: 24 * HOUR, w: 7 * 24 * HOUR };
const FROM_NOW = /^([1-9][0-9]{0,4})([hdw])$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export const EXPIRES_FORMS = 'a time from now (30d, 12h, 2w), an ISO 8601 date (2030-01-31, meaning 00:00 UTC) or an ISO 8601 date-time with an offset (2030-01-31T09:00:00+01:00)';

/**
 * `--expires` as the API's `expiresAt` (issue #37): a time from now in hours, days or weeks; a
 * date, which means its 00:00 UTC; or a date-time with an offset, sent as given. Undefined for
 * anything else (`tomorrow`, a date that does not exist, a date-time without its offset).
 */
export function expiresAt(text: string, now: number): string | undefined {
  const fromNow = FROM_NOW.exec(text);
  if (fromNow) return new Date(now + Number(fromNow[1]) * UNITS[fromNow[2]!]!).toISOString();
  const date = text.slice(0, 10);
  // Date.parse takes 2030-02-30 for 2 March: the day must be one of its month.
  const midnight = DATE.test(date) ? new Date(`${date}T00:00:00Z`) : undefined;
  if (!midnight || Number.isNaN(midnight.getTime()) || !midnight.toISOString().startsWith(date)) return undefined;
  if (text === date) return midnight.toISOString();
  return DATE_TIME.test(text) && !Number.isNaN(Date.parse(text)) ? text : undefined;
}

function prepareIssue(i: CommandInput, now: () => number): Prepared {
  const expires = str(i, 'expires');
  const at = expires === undefined ? undefined : expiresAt(expires, now());
  if (expires !== undefined && at === undefined) return usage(`option --expires takes ${EXPIRES_FORMS}; got ${JSON.stringify(expires)}`);
  return send('POST', `/users/${seg(i.args['userId']!)}/tokens`, defined({ name: str(i, 'name'), expiresAt: at }));
}

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
        expires: { type: 'string', value: 'when', description: `Expiry: ${EXPIRES_FORMS} (default: never)` },
      },
      prepare: (i, deps) => prepareIssue(i, deps.now ?? Date.now),
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
