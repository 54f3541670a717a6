/**
 * Shared set-up for the maintenance integration tests (spec 4.2, 7.2): one platform per test
 * file with a settable clock, builders for workgroups, users, CIs and modes, and the problem
 * assertion. Time moves only when a test assigns the clock.
 */
import type { Test } from 'tap';
import type { Answer } from '../../support/http.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';

export const MAINT = '/api/public/sm/v1/rsm-maintenance';
export const CIS = '/api/public/sm/v2/rsm/config-items';
export const ADMIN_API = '/api/admin/v1';
export const UNKNOWN_TOKEN = `ops_${'x'.repeat(43)}`;
export const MIN = 60_000;
export const HOUR = 3_600_000;
/** Answers carry UTC with milliseconds and `Z`. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type ApiOptions = { json?: unknown; body?: string; headers?: Record<string, string>; token?: string | null };
export interface User {
  id: number;
  token: string;
}

export class Kit {
  clock = Date.parse('2026-11-21T10:00:00.000Z');
  p!: TestPlatform;
  private seq = 0;

  async start(): Promise<void> {
    this.p = await startTestPlatform({ now: () => this.clock });
  }

  stop(): Promise<void> {
    return this.p.stop();
  }

  /** ISO text of the current clock plus `ms`. */
  at(ms = 0): string {
    return new Date(this.clock + ms).toISOString();
  }

  uniq(prefix: string): string {
    return `${prefix}-${++this.seq}`;
  }

  api(method: string, path: string, options?: ApiOptions): Promise<Answer> {
    return this.p.api(method, path, options);
  }

  async must(answer: Answer, status: number, what: string): Promise<any> {
    if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text}`);
    return answer.body;
  }

  async workGroup(memberIds: number[] = []): Promise<number> {
    const name = this.uniq('wg');
    return (await this.must(await this.api('POST', `${ADMIN_API}/work-groups`, { json: { name, memberIds } }), 201, `work-group ${name}`)).id;
  }

  async user(roles: string[] = [], workGroupIds: number[] = []): Promise<User> {
    const name = this.uniq('user');
    const user = await this.must(await this.api('POST', `${ADMIN_API}/users`, { json: { name, roles, workGroupIds } }), 201, `user ${name}`);
    const issued = await this.must(await this.api('POST', `${ADMIN_API}/users/${user.id}/tokens`, { json: {} }), 201, `token of ${name}`);
    return { id: user.id, token: issued.token };
  }

  /** Creates a CI as the admin, in workgroup `owner` or under `parent`, and answers its id. */
  async ci(owner: number, parent?: number): Promise<number> {
    const json = parent === undefined ? { name: this.uniq('ci'), ownerWorkGroup: { id: owner } } : { name: this.uniq('ci'), parent: { id: parent } };
    return (await this.must(await this.api('POST', CIS, { json }), 201, 'CI')).id;
  }

  async grant(ciId: number, workGroupId: number, shareType: string, grants: string[]): Promise<void> {
    await this.must(await this.api('POST', `${CIS}/${ciId}/work-groups`, { json: { workGroupId, shareType, grants } }), 200, `grant on ${ciId}`);
  }

  create(body: unknown, options: { token?: string; query?: string } = {}): Promise<Answer> {
    return this.api('POST', `${MAINT}${options.query ?? ''}`, { json: body, ...(options.token ? { token: options.token } : {}) });
  }

  /** Creates a mode (201 expected) and answers its model. */
  async mode(body: Record<string, unknown>): Promise<any> {
    return this.must(await this.create(body), 201, 'maintenance mode');
  }

  get(id: number | string, token?: string): Promise<Answer> {
    return this.api('GET', `${MAINT}/${id}`, token ? { token } : {});
  }

  edit(method: 'PUT' | 'PATCH', id: number | string, body: unknown, options: { token?: string; query?: string } = {}): Promise<Answer> {
    return this.api(method, `${MAINT}/${id}${options.query ?? ''}`, { json: body, ...(options.token ? { token: options.token } : {}) });
  }

  list(query = '', token?: string): Promise<Answer> {
    return this.api('GET', `${MAINT}${query}`, token ? { token } : {});
  }

  filter(body: unknown, query = '', token?: string): Promise<Answer> {
    return this.api('POST', `${MAINT}/filter${query}`, { json: body, ...(token ? { token } : {}) });
  }
}

/** Asserts a problem+json answer with its status, `urn:ops:problem:<code>` type and, when given, detail and field path. */
export function isProblem(t: Test, answer: Answer, status: number, code: string, detail?: RegExp, path?: string): void {
  t.equal(answer.status, status, `status ${status}`);
  t.equal(answer.headers.get('content-type'), 'application/problem+json', 'problem+json');
  t.equal(answer.body?.type, `urn:ops:problem:${code}`, `type ${code}`);
  if (detail) t.match(answer.body?.detail, detail, 'detail names the condition');
  if (path)
    t.ok(
      (answer.body?.errors ?? []).some((e: { path: string }) => e.path === path),
      `errors name ${path}`,
    );
}
