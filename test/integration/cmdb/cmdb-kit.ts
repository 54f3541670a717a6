/**
 * Shared set-up for the CMDB integration tests (spec 4.1, 7.1): one platform per test file, a
 * settable clock, and small builders for workgroups, users with tokens, CI types, CMDB systems
 * and CIs through the admin and public APIs.
 */
import type { Test } from 'tap';
import type { Answer } from '../../support/http.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';

export const RSM = '/api/public/sm/v2/rsm';
export const CIS = `${RSM}/config-items`;
export const ADMIN_API = '/api/admin/v1';
/** ISO 8601 UTC with milliseconds (spec 2.4). */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UNKNOWN_TOKEN = `ops_${'x'.repeat(43)}`;

export const BASIC_READ = 'base-system.rsm.basic-read';
export const MONITORING_READ = 'base-system.rsm.monitoring-read';
export const READ = 'base-system.rsm.read';
export const WRITE = 'base-system.rsm.write';

/** The keys of the full CI model (spec 2.3) when neither state, health nor cmdbSystem is shown. */
export const FULL_KEYS = [
  'cmdbLinks',
  'configItemType',
  'description',
  'entityInfo',
  'id',
  'incomingEdges',
  'labels',
  'name',
  'outgoingEdges',
  'ownerWorkGroup',
  'parent',
  'sharedToWorkGroups',
];

export interface Named {
  id: number;
  name: string;
}
export interface User extends Named {
  token: string;
}
type ApiOptions = { json?: unknown; body?: string; headers?: Record<string, string>; token?: string | null };

export class Kit {
  clock = Date.parse('2026-03-02T08:30:15.250Z');
  p!: TestPlatform;
  admin!: Named;
  defaultType!: { id: number; name: string; description: string };
  private seq = 0;

  /** Starts the platform (on `dataDir` when given, e.g. to restart on the same data; `options` as startTestPlatform's). */
  async start(dataDir?: string, options: Omit<Parameters<typeof startTestPlatform>[0] & object, 'now' | 'dataDir'> = {}): Promise<void> {
    this.p = await startTestPlatform({ ...options, now: () => this.clock, ...(dataDir ? { dataDir } : {}) });
    const me = await this.p.api('GET', `${ADMIN_API}/me`);
    this.admin = { id: me.body.user.id, name: me.body.user.name };
    const types = await this.p.api('GET', `${ADMIN_API}/config-item-types`);
    const def = types.body.find((x: { isDefault: boolean }) => x.isDefault);
    this.defaultType = { id: def.id, name: def.name, description: def.description };
  }

  stop(): Promise<void> {
    return this.p.stop();
  }

  /** Advances the platform clock and answers the new time as ISO text. */
  tick(ms = 1000): string {
    this.clock += ms;
    return new Date(this.clock).toISOString();
  }

  iso(): string {
    return new Date(this.clock).toISOString();
  }

  uniq(prefix: string): string {
    return `${prefix}-${++this.seq}`;
  }

  api(method: string, path: string, options?: ApiOptions): Promise<Answer> {
    return this.p.api(method, path, options);
  }

  private async must(answer: Answer, status: number, what: string): Promise<any> {
    if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text}`);
    return answer.body;
  }

  async workGroup(name = this.uniq('wg'), memberIds: number[] = []): Promise<Named> {
    const body = await this.must(await this.api('POST', `${ADMIN_API}/work-groups`, { json: { name, memberIds } }), 201, `work-group ${name}`);
    return { id: body.id, name: body.name };
  }

  async user(workGroupIds: number[] = [], name = this.uniq('user')): Promise<User> {
    const user = await this.must(await this.api('POST', `${ADMIN_API}/users`, { json: { name, workGroupIds } }), 201, `user ${name}`);
    const issued = await this.must(await this.api('POST', `${ADMIN_API}/users/${user.id}/tokens`, { json: {} }), 201, `token of ${name}`);
    return { id: user.id, name: user.name, token: issued.token };
  }

  /** A fresh workgroup with one member. */
  async team(prefix = 'team'): Promise<{ wg: Named; user: User }> {
    const wg = await this.workGroup(this.uniq(prefix));
    const user = await this.user([wg.id], this.uniq(`${prefix}-member`));
    return { wg, user };
  }

  async ciType(name = this.uniq('type'), description = `${name} description`): Promise<{ id: number; name: string; description: string }> {
    const body = await this.must(await this.api('POST', `${ADMIN_API}/config-item-types`, { json: { name, description } }), 201, `CI type ${name}`);
    return { id: body.id, name: body.name, description: body.description };
  }

  async cmdbSystem(name = this.uniq('cmdb')): Promise<Named> {
    const body = await this.must(await this.api('POST', `${ADMIN_API}/cmdb-systems`, { json: { name } }), 201, `CMDB system ${name}`);
    return { id: body.id, name: body.name };
  }

  /** Creates a CI (as the admin unless `token`) and answers its full model. */
  async ci(body: Record<string, unknown>, token?: string): Promise<any> {
    const json = { name: this.uniq('ci'), ...body };
    return this.must(await this.api('POST', CIS, { json, ...(token ? { token } : {}) }), 201, `CI ${String(json.name)}`);
  }

  /** Adds an access grant (as the admin) and answers the grant record. */
  async grant(ciId: number, workGroupId: number, shareType: string, grants: string[]): Promise<{ id: number }> {
    const body = await this.must(await this.api('POST', `${CIS}/${ciId}/work-groups`, { json: { workGroupId, shareType, grants } }), 200, `grant on ${ciId}`);
    return body.sharedToWorkGroups.find((g: { workGroupId: number; shareType: string }) => g.workGroupId === workGroupId && g.shareType === shareType);
  }

  get(id: number, token?: string, query = ''): Promise<Answer> {
    return this.api('GET', `${CIS}/${id}${query}`, token ? { token } : {});
  }

  /** Ids of the CIs `token` sees in the #4 list. */
  async listed(token?: string): Promise<number[]> {
    const list = await this.must(await this.api('GET', CIS, token ? { token } : {}), 200, 'list');
    return list.map((c: Named) => c.id);
  }
}

/** Asserts a problem+json answer (DESIGN §5) with its status, `urn:ops:problem:<code>` type and, when given, detail and field path. */
export function isProblem(t: Test, answer: Answer, status: number, code: string, detail?: RegExp, path?: string): void {
  t.equal(answer.status, status, `status ${status}`);
  t.equal(answer.headers.get('content-type'), 'application/problem+json', 'problem+json');
  t.equal(answer.body?.type, `urn:ops:problem:${code}`, `type ${code}`);
  t.equal(answer.body?.status, status, 'status in the body');
  t.type(answer.body?.title, 'string', 'a title');
  if (detail) t.match(answer.body?.detail, detail, 'detail names the condition');
  if (path)
    t.ok(
      (answer.body?.errors ?? []).some((e: { path: string }) => e.path === path),
      `errors name ${path}`,
    );
}

/** 401 with no token and with an unknown one. */
export async function isUnauthorised(t: Test, kit: Kit, method: string, path: string, json?: unknown): Promise<void> {
  for (const token of [null, UNKNOWN_TOKEN]) {
    const answer = await kit.api(method, path, json === undefined ? { token } : { token, json });
    isProblem(t, answer, 401, 'unauthorized');
  }
}

/** Sorted keys, to compare the shape of a model. */
export const keys = (o: object): string[] => Object.keys(o).sort();
