/**
 * Shared set-up of the notification admin API tests (issue #31): the CMDB kit's platform, with
 * receivers' host names resolved by a table instead of DNS (so the outbound address rules are
 * checked on known addresses), users with roles, and an assertion on the catalogue code.
 */
import type { Test } from 'tap';
import type { LookupAddress } from 'node:dns';
import { createApiPart } from '../../../services/api/api.part.js';
import { allPartNames } from '../../../services/parts.js';
import type { Answer } from '../../support/http.js';
import { ADMIN_API, Kit, type User } from '../cmdb/cmdb-kit.js';

export { ADMIN_API, type User };
export const RECEIVERS = `${ADMIN_API}/notifications/receivers`;
export const POLICIES = `${ADMIN_API}/notifications/policies`;

/** What the test "DNS" answers; any other name does not exist. */
export const HOSTS: Readonly<Record<string, string>> = {
  'hooks.example.com': '93.184.215.14',
  'events.pagerduty.com': '35.153.0.20',
  'hooks.slack.com': '34.226.0.10',
  'prod-00.westeurope.logic.azure.com': '20.50.2.10',
  'am.example.com': '93.184.215.15',
  'smtp.example.com': '93.184.215.16',
  'internal.example.com': '10.0.0.5',
  'metadata.example.com': '169.254.169.254',
};

async function resolveHost(hostname: string): Promise<readonly LookupAddress[]> {
  const address = HOSTS[hostname];
  if (address === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return [{ address, family: 4 }];
}

export class NotificationsKit extends Kit {
  /**
   * The admin model's tests: no dispatcher runs, so what they record (replays) stays as recorded
   * (the dispatcher's tests start one: dispatch, admin-dispatch, receiver-outage).
   */
  startWithDns(): Promise<void> {
    return this.start(undefined, { parts: allPartNames.filter((p) => p !== 'notifications'), replace: [createApiPart({ resolveHost })] });
  }

  /** A user with `roles` in `workGroupIds`, with a token. */
  async member(roles: string[], workGroupIds: number[]): Promise<User> {
    const name = this.uniq('notify-user');
    const created = await this.api('POST', `${ADMIN_API}/users`, { json: { name, roles, workGroupIds } });
    if (created.status !== 201) throw new Error(created.text);
    const issued = await this.api('POST', `${ADMIN_API}/users/${created.body.id}/tokens`, { json: {} });
    return { id: created.body.id, name, token: issued.body.token };
  }

  /** Creates (as the admin unless `token`) and answers the body, or throws. */
  async make(path: string, json: unknown, token?: string): Promise<any> {
    const answer = await this.api('POST', path, { json, ...(token ? { token } : {}) });
    if (answer.status !== 201) throw new Error(`POST ${path}: ${answer.status} ${answer.text}`);
    return answer.body;
  }
}

/** A problem+json answer with its status, catalogue code and, when given, a field path and detail. */
export function fails(t: Test, answer: Answer, status: number, code: string, path?: string, detail?: RegExp): void {
  t.equal(answer.status, status, `status ${status}`);
  t.equal(answer.headers.get('content-type'), 'application/problem+json', 'problem+json');
  t.equal(answer.body?.code, code, `code ${code}`);
  if (path !== undefined)
    t.ok(
      (answer.body?.errors ?? []).some((e: { path: string }) => e.path === path),
      `errors name ${path}: ${JSON.stringify(answer.body?.errors)}`,
    );
  if (detail) t.match(answer.body?.detail, detail, 'detail');
}

/** A `whsec_` secret of `bytes` bytes (the same bytes for the same seed). */
export const whsec = (seed: number, bytes = 24): string => `whsec_${Buffer.alloc(bytes, seed).toString('base64')}`;
