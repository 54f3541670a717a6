/**
 * Issue #15, the rights matrix as data. `ACTS`: one entry per act of a public endpoint on CIs,
 * or on what is scoped by CIs (maintenance modes), naming each CI the request names and the right
 * the caller needs on it; `NOT_CI_SCOPED`: every other route under /api/, each with why.
 * rights-matrix.test.ts generates its cases from both tables and fails on a registered route in
 * neither, so a new endpoint cannot skip the matrix. docs/decisions.md "Rights matrix (issue
 * #15)" states the same table in prose; change both together.
 */
import type { Answer } from '../../support/http.js';
import { CIS, READ, WRITE } from './cmdb-kit.js';

export const MAINT = '/api/public/sm/v1/rsm-maintenance';
const PROBLEMS = '/api/public/sm/v1/problems';
const HOUR = 3_600_000;

/**
 * What an act needs on one CI. `owner`: membership of the CI's owner workgroup (the whole tree
 * below a root shares it); for #8 also of the new owner workgroup, which in the matrix is always
 * one the caller belongs to. Platform admins hold everything.
 */
export type Need = 'none' | 'basic-read' | 'read' | 'write' | 'owner';
/** A status, or for the lists whether the answer (200) shows the CI. */
export type Outcome = number | 'listed' | 'hidden';
export type Role = 'ci' | 'parent' | 'child' | 'dependent' | 'influencing';

export interface NamedCi {
  role: Role;
  need: Need;
  /** The answer when the caller lacks `need`. */
  refused: Outcome;
  /** The answer instead when the caller may not even basic-read the CI: it is answered as absent. */
  unseen?: number;
  /** Created below the CI of this role; otherwise below a root of its own. */
  under?: Role;
  /** A root: the act needs one (a CI with a parent keeps its parent's workgroup). */
  root?: boolean;
}

export interface Env {
  /** As the admin unless `token`. */
  api(method: string, path: string, options?: { json?: unknown; token?: string }): Promise<Answer>;
  must(answer: Answer, status: number, what: string): any;
  uniq(prefix: string): string;
  /** ISO time `ms` after the platform clock. */
  at(ms: number): string;
  /** The workgroup owning every CI of the matrix, the caller's workgroup, and one nobody of the matrix is in. */
  wg: { owner: number; caller: number; third: number };
}

export interface Fixture {
  ci: Record<Role, { id: number; name: string }>;
  /** What an act's setup made besides the CIs (a grant id, a mode id, a name). */
  extra: Record<string, number | string>;
}

export interface Request {
  method: string;
  path: string;
  json?: unknown;
}

export interface Act {
  route: string;
  act: string;
  cis: NamedCi[];
  ok: Outcome;
  /** An allowed request changes what the snapshot reads (so the snapshot can see a change). */
  changes: boolean;
  setup?: (env: Env, f: Fixture) => Promise<void>;
  request: (f: Fixture, env: Env) => Request;
  /** For the lists: whether a 200 answer shows the CI. */
  observe?: (answer: Answer, f: Fixture) => Outcome;
  /** Admin reads, besides the CIs of the fixture, that a refused request must leave as they were. */
  snapshot?: (env: Env, f: Fixture) => Promise<unknown>;
}

const shows = (answer: Answer, id: number | string): Outcome => {
  if (answer.status !== 200) return answer.status;
  return (answer.body as Array<{ id: number }>).some((x) => x.id === id) ? 'listed' : 'hidden';
};
const ciNamed = async (env: Env, name: string | number | undefined) => env.must(await env.api('POST', `${CIS}/filter`, { json: { names: [name] } }), 200, 'filter by name');
const modesOn = async (env: Env, ciId: number) => env.must(await env.api('POST', `${MAINT}/filter?perPage=-1`, { json: { configItemIds: [ciId] } }), 200, 'modes on the CI');
const modeOf = async (env: Env, f: Fixture) => (await env.api('GET', `${MAINT}/${f.extra['mode']}`)).body;
const window = (env: Env, ciId: number) => ({ dateStart: env.at(HOUR), dateEnd: env.at(2 * HOUR), configItems: [{ id: ciId, scope: 'Ci' }] });

/** A mode on the CI, made by the admin. */
async function modeOnCi(env: Env, f: Fixture): Promise<void> {
  f.extra['mode'] = env.must(await env.api('POST', MAINT, { json: { title: env.uniq('mode'), ...window(env, f.ci.ci.id) } }), 201, 'mode').id;
}

/** A grant of the third workgroup on the CI, made by the admin: changing or removing it is the act. */
async function thirdPartyGrant(env: Env, f: Fixture): Promise<void> {
  const body = env.must(await env.api('POST', `${CIS}/${f.ci.ci.id}/work-groups`, { json: { workGroupId: env.wg.third, shareType: 'ConfigItem', grants: [READ] } }), 200, 'grant');
  f.extra['grant'] = body.sharedToWorkGroups.find((g: { workGroupId: number }) => g.workGroupId === env.wg.third).id;
}

const one = (need: Need, refused: Outcome, more: Partial<NamedCi> = {}): NamedCi[] => [{ role: 'ci', need, refused, ...more }];

export const ACTS: Act[] = [
  // ------------------------------------------------------------ CMDB, spec 4.1
  {
    route: `GET ${CIS}`,
    act: '#4 list: shows it',
    cis: one('basic-read', 'hidden'),
    ok: 'listed',
    changes: false,
    request: () => ({ method: 'GET', path: CIS }),
    observe: (answer, f) => shows(answer, f.ci.ci.id),
  },
  {
    route: `POST ${CIS}/filter`,
    act: '#5 filter by its id: shows it',
    cis: one('basic-read', 'hidden'),
    ok: 'listed',
    changes: false,
    request: (f) => ({ method: 'POST', path: `${CIS}/filter`, json: { ids: [f.ci.ci.id] } }),
    observe: (answer, f) => shows(answer, f.ci.ci.id),
  },
  {
    route: `GET ${CIS}/:parentId/children`,
    act: 'tree: a search from the top level shows it',
    cis: one('basic-read', 'hidden'),
    ok: 'listed',
    changes: false,
    request: (f) => ({ method: 'GET', path: `${CIS}/0/children?search=${encodeURIComponent(f.ci.ci.name)}` }),
    observe: (answer, f) =>
      answer.status !== 200 ? answer.status : (answer.body as { items: Array<{ id: number }> }).items.some((x) => x.id === f.ci.ci.id) ? 'listed' : 'hidden',
  },
  {
    route: `POST ${CIS}`,
    act: '#6 create a child under it',
    cis: one('write', 403),
    ok: 201,
    changes: true,
    setup: async (env, f) => void (f.extra['name'] = env.uniq('new-child')),
    request: (f) => ({ method: 'POST', path: CIS, json: { name: f.extra['name'], parent: { id: f.ci.ci.id } } }),
    snapshot: (env, f) => ciNamed(env, f.extra['name']),
  },
  {
    route: `POST ${CIS}`,
    act: '#6 create a root in its owner workgroup',
    cis: one('owner', 403),
    ok: 201,
    changes: true,
    setup: async (env, f) => void (f.extra['name'] = env.uniq('new-root')),
    request: (f, env) => ({ method: 'POST', path: CIS, json: { name: f.extra['name'], ownerWorkGroup: { id: env.wg.owner } } }),
    snapshot: (env, f) => ciNamed(env, f.extra['name']),
  },
  {
    route: `DELETE ${CIS}/:id`,
    act: '#7 delete it',
    cis: one('write', 403),
    ok: 204,
    changes: true,
    request: (f) => ({ method: 'DELETE', path: `${CIS}/${f.ci.ci.id}` }),
  },
  {
    route: `PUT ${CIS}/:id`,
    act: '#8 update it, same owner',
    cis: one('write', 403),
    ok: 200,
    changes: true,
    request: (f, env) => ({ method: 'PUT', path: `${CIS}/${f.ci.ci.id}`, json: { name: `${f.ci.ci.name}-renamed`, description: 'changed', ownerWorkGroup: { id: env.wg.owner } } }),
  },
  {
    route: `PUT ${CIS}/:id`,
    act: "#8 give it to the caller's workgroup",
    cis: one('owner', 403, { root: true }),
    ok: 200,
    changes: true,
    request: (f, env) => ({ method: 'PUT', path: `${CIS}/${f.ci.ci.id}`, json: { name: f.ci.ci.name, ownerWorkGroup: { id: env.wg.caller } } }),
  },
  {
    route: `POST ${CIS}/:id/work-groups`,
    act: "#9 share it: a Tree write grant for the caller's workgroup",
    cis: one('owner', 403),
    ok: 200,
    changes: true,
    request: (f, env) => ({ method: 'POST', path: `${CIS}/${f.ci.ci.id}/work-groups`, json: { workGroupId: env.wg.caller, shareType: 'Tree', grants: [WRITE] } }),
  },
  {
    route: `PUT ${CIS}/:id/work-groups`,
    act: "#10 change a grant on it (another workgroup's ConfigItem read to Tree write)",
    cis: one('owner', 403),
    ok: 200,
    changes: true,
    setup: thirdPartyGrant,
    request: (f) => ({ method: 'PUT', path: `${CIS}/${f.ci.ci.id}/work-groups`, json: { id: f.extra['grant'], shareType: 'Tree', grants: [WRITE] } }),
  },
  {
    route: `DELETE ${CIS}/:id/work-groups/:sharedId`,
    act: "#11 remove a grant on it (another workgroup's)",
    cis: one('owner', 403),
    ok: 204,
    changes: true,
    setup: thirdPartyGrant,
    request: (f) => ({ method: 'DELETE', path: `${CIS}/${f.ci.ci.id}/work-groups/${f.extra['grant']}` }),
  },
  {
    route: `GET ${CIS}/:id`,
    act: '#12 read it',
    cis: one('read', 403),
    ok: 200,
    changes: false,
    request: (f) => ({ method: 'GET', path: `${CIS}/${f.ci.ci.id}` }),
  },
  {
    route: `POST ${CIS}/:parentId/children`,
    act: '#13 move a CI under another',
    cis: [
      { role: 'parent', need: 'write', refused: 403 },
      { role: 'child', need: 'write', refused: 403, unseen: 404 },
    ],
    ok: 200,
    changes: true,
    request: (f) => ({ method: 'POST', path: `${CIS}/${f.ci.parent.id}/children`, json: { id: f.ci.child.id } }),
  },
  {
    route: `POST ${CIS}/:dependentId/influentials`,
    act: '#14 link an influencing CI',
    cis: [
      { role: 'dependent', need: 'write', refused: 403 },
      { role: 'influencing', need: 'read', refused: 403 },
    ],
    ok: 200,
    changes: true,
    request: (f) => ({ method: 'POST', path: `${CIS}/${f.ci.dependent.id}/influentials`, json: { id: f.ci.influencing.id } }),
  },
  {
    route: `DELETE ${CIS}/:parentId/children/:childId`,
    act: '#15 take a child out',
    cis: [
      { role: 'parent', need: 'write', refused: 403 },
      { role: 'child', need: 'write', refused: 403, unseen: 404, under: 'parent' },
    ],
    ok: 200,
    changes: true,
    request: (f) => ({ method: 'DELETE', path: `${CIS}/${f.ci.parent.id}/children/${f.ci.child.id}` }),
  },
  {
    route: `DELETE ${CIS}/:dependentId/influentials/:influentialId`,
    act: '#16 unlink an influencing CI',
    cis: [
      { role: 'dependent', need: 'write', refused: 403 },
      { role: 'influencing', need: 'read', refused: 403 },
    ],
    ok: 200,
    changes: true,
    setup: async (env, f) => void env.must(await env.api('POST', `${CIS}/${f.ci.dependent.id}/influentials`, { json: { id: f.ci.influencing.id } }), 200, 'link'),
    request: (f) => ({ method: 'DELETE', path: `${CIS}/${f.ci.dependent.id}/influentials/${f.ci.influencing.id}` }),
  },

  // ------------------------------------------------------------ maintenance, spec 4.2 (the caller holds maintenance-writer)
  {
    route: `GET ${MAINT}`,
    act: 'maintenance #1 list: shows a mode on it',
    cis: one('basic-read', 'hidden'),
    ok: 'listed',
    changes: false,
    setup: modeOnCi,
    request: () => ({ method: 'GET', path: `${MAINT}?perPage=-1` }),
    observe: (answer, f) => shows(answer, f.extra['mode']!),
  },
  {
    route: `GET ${MAINT}/:id`,
    act: 'maintenance #2 read a mode on it',
    cis: one('basic-read', 403),
    ok: 200,
    changes: false,
    setup: modeOnCi,
    request: (f) => ({ method: 'GET', path: `${MAINT}/${f.extra['mode']}` }),
  },
  {
    route: `POST ${MAINT}/filter`,
    act: 'maintenance #3 filter by it: shows a mode on it',
    cis: one('basic-read', 'hidden'),
    ok: 'listed',
    changes: false,
    setup: modeOnCi,
    request: (f) => ({ method: 'POST', path: `${MAINT}/filter`, json: { configItemIds: [f.ci.ci.id] } }),
    observe: (answer, f) => shows(answer, f.extra['mode']!),
  },
  {
    route: `GET ${MAINT}/windows`,
    act: 'maintenance windows (issue #33): shows the window of a mode on it',
    cis: one('basic-read', 'hidden'),
    ok: 'listed',
    changes: false,
    setup: modeOnCi,
    request: (_f, env) => ({ method: 'GET', path: `${MAINT}/windows?dateFrom=${encodeURIComponent(env.at(0))}&dateTo=${encodeURIComponent(env.at(3 * HOUR))}` }),
    observe: (answer, f) => (answer.status === 200 ? shows({ ...answer, body: answer.body.modes }, f.extra['mode']!) : answer.status),
  },
  {
    route: `POST ${MAINT}`,
    act: 'maintenance #4 create a mode on it',
    // Spec 7.2 #4: a CI not accessible is a 400 ("specified CIs not found or not accessible").
    cis: one('read', 400),
    ok: 201,
    changes: true,
    request: (f, env) => ({ method: 'POST', path: MAINT, json: { title: 'by the caller', ...window(env, f.ci.ci.id) } }),
    snapshot: (env, f) => modesOn(env, f.ci.ci.id),
  },
  {
    route: `POST ${MAINT}/preview`,
    act: 'maintenance preview of a mode on it (issue #17): as create, without saving',
    cis: one('read', 400),
    ok: 200,
    changes: false,
    request: (f, env) => ({ method: 'POST', path: `${MAINT}/preview`, json: { title: 'by the caller', ...window(env, f.ci.ci.id) } }),
    snapshot: (env, f) => modesOn(env, f.ci.ci.id),
  },
  {
    route: `PUT ${MAINT}/:id`,
    act: 'maintenance #5 replace a mode on it',
    cis: one('read', 403),
    ok: 200,
    changes: true,
    setup: modeOnCi,
    request: (f, env) => ({ method: 'PUT', path: `${MAINT}/${f.extra['mode']}`, json: { title: 'replaced', ...window(env, f.ci.ci.id) } }),
    snapshot: modeOf,
  },
  {
    route: `PATCH ${MAINT}/:id`,
    act: 'maintenance #6 change a mode on it',
    cis: one('read', 403),
    ok: 200,
    changes: true,
    setup: modeOnCi,
    request: (f) => ({ method: 'PATCH', path: `${MAINT}/${f.extra['mode']}`, json: { title: 'patched' } }),
    snapshot: modeOf,
  },
];

/** Why a route does not depend on CI rights. `admin`: only platform admins (who hold write on every CI) may call it; the test checks that. */
export type Reason = { admin: true } | { why: string };
const ADMIN_ONLY: Reason = { admin: true };
const A = '/api/admin/v1';
const SLA = '/api/public/sm/v1/sla';
const CL = '/api/public/cl/v1';
const CONSOLE = '/api/console/v1';
const streamKey: Reason = { why: 'authorised by a stream key, not a user; records reach CIs only through triggers, which admins define' };
const slaRights: Reason = { why: 'rights on the SLA template or the report (its owner user or workgroup, sla-access.ts); the CIs a template counts are set by admins' };
const notifying: Reason = { why: 'platform right base-system.notifications.write and membership of the owning workgroup (notifications-access.ts); no CI is named' };
const notifyingCis: Reason = {
  why: 'membership of the owning workgroup; the CIs named must be ones that workgroup may basic-read, whoever saves it (400; notifications/policies.test.ts)',
};

export const NOT_CI_SCOPED: Record<string, Reason> = {
  'GET /api/openapi.json': { why: 'the API description, the same for every caller' },
  'GET /api/public/sm/v2/rsm/config-item-types': { why: '#1 reference data for any authenticated user' },
  'GET /api/public/sm/v2/rsm/cmdb-systems': { why: '#2 reference data for any authenticated user' },
  'GET /api/public/sm/v2/rsm/work-groups': { why: '#3 reference data for any authenticated user' },
  'GET /api/public/sm/v2/rsm/config-item-type-icons/:id': { why: 'the image of a CI type icon (its iconUrl), public so an <img> loads it; names no CI (ci-type-icons.test.ts)' },
  [`GET ${SLA}/templates`]: slaRights,
  [`GET ${SLA}/templates/:id/live`]: slaRights,
  [`POST ${SLA}/ordered`]: slaRights,
  [`GET ${SLA}/ordered/:id`]: slaRights,
  [`GET ${SLA}/ordered/:id/export`]: slaRights,
  [`GET ${SLA}/ordered/:id/timeline`]: slaRights,
  [`POST ${CL}/stream-data`]: streamKey,
  [`POST ${CL}/elastic/_bulk`]: streamKey,
  [`POST ${CL}/elastic/:index/_bulk`]: streamKey,
  [`GET ${CL}/elastic`]: { why: 'a fixed version document for Elasticsearch shippers' },
  [`GET ${CL}/elastic/`]: { why: 'a fixed version document for Elasticsearch shippers' },
  [`POST ${CL}/alertmanager`]: streamKey,
  // Issue #17: a user's own calendar feeds; the calendar shows what the maintenance list (#1) would show its owner, with the same visibility rule (calendar-feed.test.ts).
  [`POST ${MAINT}/calendar-feeds`]: { why: "creates a feed of the caller's own; no CI is named" },
  [`GET ${MAINT}/calendar-feeds`]: { why: "the caller's own calendar feeds" },
  [`DELETE ${MAINT}/calendar-feeds/:id`]: { why: "revokes one of the caller's feeds (an admin: anyone's); no CI is named" },
  [`GET ${MAINT}/calendar.ics`]: { why: "authorised by a feed token, not a bearer token; shows the modes the list (#1) shows the feed's owner, tested in calendar-feed.test.ts" },
  // Issue #30: problems are CI-scoped, but as a filter: the list shows the problems of the CIs the
  // caller may basic-read, one problem by id answers 404 when it may not, acting needs write on the
  // CI (403). Their cases need problems made by records, so they live in problems-api.cases.ts
  // ("a user sees exactly the problems of the subtree it was granted", "acting needs write") and
  // problems-stream.cases.ts ("the caller's rights at each event").
  [`GET ${PROBLEMS}`]: { why: 'filtered by basic-read on each problem’s CI (problems-api.cases.ts)' },
  [`GET ${PROBLEMS}/stream`]: { why: 'filtered by basic-read on each change’s CI, at each event (problems-stream.cases.ts)' },
  [`GET ${PROBLEMS}/:id`]: { why: '404 without basic-read on the problem’s CI (problems-api.cases.ts)' },
  [`POST ${PROBLEMS}/:id/acknowledge`]: { why: '403 without write on the problem’s CI (problems-api.cases.ts)' },
  [`POST ${PROBLEMS}/:id/unacknowledge`]: { why: '403 without write on the problem’s CI (problems-api.cases.ts)' },
  [`POST ${PROBLEMS}/:id/resolve`]: { why: 'write on the problem’s CI, as acknowledge (problems-api.cases.ts)' },
  [`POST ${PROBLEMS}/:id/comments`]: { why: '403 without write on the problem’s CI (problems-api.cases.ts)' },
  [`POST ${PROBLEMS}/acknowledge`]: { why: 'takes only the problems on CIs the caller may change (problems-api.cases.ts)' },
  // Issue #30: a stream's events need the platform right base-system.streams.read (stream-events.test.ts).
  [`GET ${CL}/streams/:id/events`]: { why: 'platform right base-system.streams.read; no CI is named' },
  [`GET ${CL}/streams/:id/events/stream`]: { why: 'platform right base-system.streams.read; no CI is named' },
  [`GET ${CL}/streams/:id/dead-letters`]: { why: 'platform right base-system.streams.read; no CI is named' },
  // Issue #33: a stream's activity per minute, for the readers of its events (stream-activity.test.ts).
  [`GET ${CL}/streams/:id/activity`]: { why: 'platform right base-system.streams.read; no CI is named' },
  [`GET ${CL}/streams`]: { why: 'platform right base-system.streams.read; no CI is named, and no key is shown' },
  [`GET ${CL}/streams/:id`]: { why: 'platform right base-system.streams.read; no CI is named, and no key is shown' },
  [`GET ${A}/me`]: { why: "the caller's own user and workgroups" },
  // Issue #32: the console's session is the caller's own; it acts with its token's rights (auth.ts), tested in console/session.test.ts.
  [`POST ${CONSOLE}/session`]: { why: 'signs in with a personal token: a session of its own user, no CI named' },
  [`GET ${CONSOLE}/session`]: { why: "the caller's own session" },
  [`DELETE ${CONSOLE}/session`]: { why: "signs the caller's own session out" },
  [`GET ${A}/users`]: ADMIN_ONLY,
  [`POST ${A}/users`]: ADMIN_ONLY,
  [`GET ${A}/users/:id`]: ADMIN_ONLY,
  [`PATCH ${A}/users/:id`]: ADMIN_ONLY,
  [`DELETE ${A}/users/:id`]: ADMIN_ONLY,
  [`GET ${A}/users/:id/tokens`]: ADMIN_ONLY,
  [`POST ${A}/users/:id/tokens`]: ADMIN_ONLY,
  [`DELETE ${A}/users/:id/tokens/:tokenId`]: ADMIN_ONLY,
  [`GET ${A}/work-groups`]: ADMIN_ONLY,
  [`POST ${A}/work-groups`]: ADMIN_ONLY,
  [`GET ${A}/work-groups/:id`]: ADMIN_ONLY,
  [`PATCH ${A}/work-groups/:id`]: ADMIN_ONLY,
  [`DELETE ${A}/work-groups/:id`]: ADMIN_ONLY,
  [`PUT ${A}/work-groups/:id/members/:userId`]: ADMIN_ONLY,
  [`DELETE ${A}/work-groups/:id/members/:userId`]: ADMIN_ONLY,
  [`GET ${A}/roles`]: ADMIN_ONLY,
  [`PUT ${A}/roles/:name`]: ADMIN_ONLY,
  [`DELETE ${A}/roles/:name`]: ADMIN_ONLY,
  [`GET ${A}/config-item-types`]: ADMIN_ONLY,
  [`POST ${A}/config-item-types`]: ADMIN_ONLY,
  [`PATCH ${A}/config-item-types/:id`]: ADMIN_ONLY,
  [`DELETE ${A}/config-item-types/:id`]: ADMIN_ONLY,
  [`GET ${A}/config-item-type-icons`]: ADMIN_ONLY,
  [`POST ${A}/config-item-type-icons`]: ADMIN_ONLY,
  [`DELETE ${A}/config-item-type-icons/:id`]: ADMIN_ONLY,
  [`GET ${A}/cmdb-systems`]: ADMIN_ONLY,
  [`POST ${A}/cmdb-systems`]: ADMIN_ONLY,
  [`PATCH ${A}/cmdb-systems/:id`]: ADMIN_ONLY,
  [`DELETE ${A}/cmdb-systems/:id`]: ADMIN_ONLY,
  [`GET ${A}/streams`]: ADMIN_ONLY,
  [`POST ${A}/streams`]: ADMIN_ONLY,
  [`GET ${A}/streams/:id`]: ADMIN_ONLY,
  [`PATCH ${A}/streams/:id`]: ADMIN_ONLY,
  [`POST ${A}/streams/:id/rotate-key`]: ADMIN_ONLY,
  [`POST ${A}/streams/:id/activate`]: ADMIN_ONLY,
  [`POST ${A}/streams/:id/deactivate`]: ADMIN_ONLY,
  [`POST ${A}/streams/:id/mark-for-deletion`]: ADMIN_ONLY,
  [`DELETE ${A}/streams/:id`]: ADMIN_ONLY,
  // Triggers name CIs (a fixed CI id, or how to find one in a record): admins only.
  [`GET ${A}/triggers`]: ADMIN_ONLY,
  [`POST ${A}/triggers/dry-run`]: ADMIN_ONLY,
  [`POST ${A}/triggers`]: ADMIN_ONLY,
  [`GET ${A}/triggers/:id`]: ADMIN_ONLY,
  [`PATCH ${A}/triggers/:id`]: ADMIN_ONLY,
  [`DELETE ${A}/triggers/:id`]: ADMIN_ONLY,
  // SLA templates name the CIs they count: admins only.
  [`GET ${A}/sla/templates`]: ADMIN_ONLY,
  [`POST ${A}/sla/templates`]: ADMIN_ONLY,
  [`GET ${A}/sla/templates/:id`]: ADMIN_ONLY,
  [`PATCH ${A}/sla/templates/:id`]: ADMIN_ONLY,
  [`DELETE ${A}/sla/templates/:id`]: ADMIN_ONLY,
  // Issue #31: notification receivers and policies belong to a workgroup; admins and its members
  // with base-system.notifications.write manage them. A policy's CIs must be ones its workgroup
  // may read, checked when it is saved (notifications/policies.test.ts); the rest names no CI.
  [`GET ${A}/notifications/receivers`]: notifying,
  [`POST ${A}/notifications/receivers`]: notifying,
  [`GET ${A}/notifications/receivers/:id`]: notifying,
  [`PATCH ${A}/notifications/receivers/:id`]: notifying,
  [`DELETE ${A}/notifications/receivers/:id`]: notifying,
  [`GET ${A}/notifications/receivers/:id/deliveries`]: notifying,
  [`POST ${A}/notifications/receivers/:id/deliveries/:deliveryId/replay`]: notifying,
  [`GET ${A}/notifications/policies`]: notifying,
  [`POST ${A}/notifications/policies`]: notifyingCis,
  [`GET ${A}/notifications/policies/:id`]: notifying,
  [`PATCH ${A}/notifications/policies/:id`]: notifyingCis,
  [`DELETE ${A}/notifications/policies/:id`]: notifying,
};
