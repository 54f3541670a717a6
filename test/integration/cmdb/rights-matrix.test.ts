/**
 * Issue #15: the rights model as a matrix. Every act of rights-matrix.cases.ts × every situation
 * of the caller on the CI it varies (no grant; ConfigItem, Tree, ChildrenTree grants of each
 * right; a member of the owner workgroup or of another one; a platform admin) is one case with
 * fresh CIs. The expected answer is computed from the act's needs by `expected` below, the rule
 * table of docs/decisions.md; a refused request must leave everything as it was. A first test
 * classifies every registered route, so a new endpoint cannot skip the matrix.
 *
 * Workgroups: `owner` owns every CI; the caller's grants go to `caller`; `own` callers are in
 * both, `other` callers in `caller` only. When an act names two CIs, the situation applies to
 * one of them and the other holds exactly what the act needs on it (a ConfigItem grant).
 */
import t from 'tap';
import type { Answer } from '../../support/http.js';
import { ADMIN_API, BASIC_READ, CIS, isProblem, Kit, MONITORING_READ, READ, WRITE } from './cmdb-kit.js';
import { ACTS, type Act, type Env, type Fixture, type NamedCi, type Need, NOT_CI_SCOPED, type Outcome } from './rights-matrix.cases.js';

// ---------------------------------------------------------------- the rule

const LEVELS = ['none', 'basic-read', 'monitoring-read', 'read', 'write'] as const;
type Level = (typeof LEVELS)[number];
const rank = (level: Level | Need): number => LEVELS.indexOf(level as Level);
const LEVEL_OF_RIGHT: Record<string, Level> = { [BASIC_READ]: 'basic-read', [MONITORING_READ]: 'monitoring-read', [READ]: 'read', [WRITE]: 'write' };

/** What the caller holds on one CI. */
interface Standing {
  level: Level;
  /** A member of the CI's owner workgroup, or a platform admin. */
  owner: boolean;
}

interface Grant {
  shareType: 'ConfigItem' | 'Tree' | 'ChildrenTree';
  right: string;
  /** On the CI itself, or on its parent (a root has none: then on the CI itself). */
  on: 'ci' | 'parent';
}

/** Spec 2.8: on the CI itself every share type but ChildrenTree counts; on an ancestor every one but ConfigItem. */
const reaches = (shareType: Grant['shareType'], onTheCiItself: boolean): boolean => (onTheCiItself ? shareType !== 'ChildrenTree' : shareType !== 'ConfigItem');

function standing(s: Situation, grantOnTheCiItself: boolean): Standing {
  // Owner members hold write on the whole tree (docs/decisions.md "CI rights"); admins on every CI.
  if (s.caller !== 'other') return { level: 'write', owner: true };
  if (!s.grant || !reaches(s.grant.shareType, grantOnTheCiItself)) return { level: 'none', owner: false };
  return { level: LEVEL_OF_RIGHT[s.grant.right]!, owner: false };
}

function allows(need: Need, s: Standing): boolean {
  if (need === 'owner') return s.owner;
  return rank(s.level) >= rank(need);
}

/** The answer to an act whose other CIs hold what it needs, by what the caller holds on `ci`. */
function expected(act: Act, ci: NamedCi, s: Standing): Outcome {
  if (allows(ci.need, s)) return act.ok;
  if (ci.unseen !== undefined && rank(s.level) < rank('basic-read')) return ci.unseen;
  return ci.refused;
}

// ---------------------------------------------------------------- the situations

interface Situation {
  caller: 'own' | 'other' | 'admin';
  grant?: Grant;
}

const GRANTS: Array<Grant | undefined> = [
  undefined,
  { shareType: 'ConfigItem', right: BASIC_READ, on: 'ci' },
  { shareType: 'ConfigItem', right: MONITORING_READ, on: 'ci' },
  { shareType: 'ConfigItem', right: READ, on: 'ci' },
  { shareType: 'ConfigItem', right: WRITE, on: 'ci' },
  { shareType: 'Tree', right: READ, on: 'parent' },
  { shareType: 'Tree', right: WRITE, on: 'parent' },
  { shareType: 'ChildrenTree', right: READ, on: 'parent' },
  { shareType: 'ChildrenTree', right: WRITE, on: 'parent' },
  // Gives nothing on the CI itself: only on what is below it.
  { shareType: 'ChildrenTree', right: WRITE, on: 'ci' },
];

const SITUATIONS: Situation[] = [
  ...GRANTS.map((grant) => ({ caller: 'own' as const, ...(grant ? { grant } : {}) })),
  ...GRANTS.map((grant) => ({ caller: 'other' as const, ...(grant ? { grant } : {}) })),
  { caller: 'admin' },
];

function label(s: Situation, onTheCiItself: boolean): string {
  if (s.caller === 'admin') return 'platform admin';
  const who = s.caller === 'own' ? 'owner member' : 'other workgroup';
  if (!s.grant) return `${who}, no grant`;
  const where = s.grant.on === 'ci' ? 'on it' : onTheCiItself ? 'on it (a root)' : 'on its parent';
  return `${who}, ${s.grant.shareType} ${LEVEL_OF_RIGHT[s.grant.right]} ${where}`;
}

// ---------------------------------------------------------------- set-up

const k = new Kit();
const wg = { owner: 0, caller: 0, third: 0 };
/** `admin` stays undefined: the kit then sends its admin token. */
const tokens: Record<Situation['caller'], string | undefined> = { own: undefined, other: undefined, admin: undefined };

function check(answer: Answer, status: number, what: string): any {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text}`);
  return answer.body;
}
const must = async (answer: Promise<Answer>, status: number, what: string): Promise<any> => check(await answer, status, what);

const env: Env = {
  api: (method, path, options = {}) => k.api(method, path, options),
  must: check,
  uniq: (prefix) => k.uniq(prefix),
  at: (ms) => new Date(k.clock + ms).toISOString(),
  wg,
};

/** A user of the matrix: maintenance-writer, so the maintenance acts reach their CI checks. */
async function caller(workGroupIds: number[]): Promise<string> {
  const user = await must(k.api('POST', `${ADMIN_API}/users`, { json: { name: k.uniq('matrix-user'), roles: ['maintenance-writer'], workGroupIds } }), 201, 'user');
  return (await must(k.api('POST', `${ADMIN_API}/users/${user.id}/tokens`, { json: {} }), 201, 'token')).token;
}

// The runner's timeout (package.json "tap"), for a direct `tsx` run too: the matrix makes ~2 000 requests.
t.setTimeout(120_000);

t.before(async () => {
  await k.start();
  wg.owner = (await k.workGroup(k.uniq('owner'))).id;
  wg.caller = (await k.workGroup(k.uniq('caller'))).id;
  wg.third = (await k.workGroup(k.uniq('third'))).id;
  tokens.own = await caller([wg.owner, wg.caller]);
  tokens.other = await caller([wg.caller]);
});
t.teardown(() => k.stop());

const shareOf = (grant: Grant) => ({ workGroupId: wg.caller, shareType: grant.shareType, grants: [grant.right] });
/** The grant that gives the caller exactly `need` on a CI the situation does not vary. */
function exactly(need: Need): Array<{ workGroupId: number; shareType: string; grants: string[] }> {
  if (need === 'owner') throw new Error('membership cannot be given by a grant: an act naming two CIs needs rights on each');
  if (need === 'none') return [];
  return [{ workGroupId: wg.caller, shareType: 'ConfigItem', grants: [{ 'basic-read': BASIC_READ, read: READ, write: WRITE }[need]] }];
}

async function createCi(json: Record<string, unknown>): Promise<{ id: number; name: string }> {
  const body = await must(k.api('POST', CIS, { json: { name: k.uniq('m'), ...json } }), 201, 'CI');
  return { id: body.id, name: body.name };
}

interface Case {
  name: string;
  expected: Outcome;
  fixture: Fixture;
  /** Every CI the case made: what a refused request must leave as it was. */
  ids: number[];
}

/**
 * The CIs of one case, in the order the act names them: roots, or under the CI the act places
 * them under; a holder root above the varied CI when its grant sits on a parent.
 */
async function build(act: Act, varied: NamedCi, s: Situation): Promise<Case> {
  const ci = {} as Fixture['ci'];
  const ids: number[] = [];
  let onTheCiItself = false;
  for (const named of act.cis) {
    const grant = named === varied ? s.grant : undefined;
    let parent = named.under ? ci[named.under].id : undefined;
    if (grant?.on === 'parent' && parent !== undefined) await must(k.api('POST', `${CIS}/${parent}/work-groups`, { json: shareOf(grant) }), 200, 'grant on the parent');
    else if (grant?.on === 'parent' && !named.root) {
      const holder = await createCi({ ownerWorkGroup: { id: wg.owner }, sharedToWorkGroups: [shareOf(grant)] });
      ids.push(holder.id);
      parent = holder.id;
    }
    const onItself = grant !== undefined && (grant.on === 'ci' || parent === undefined);
    if (named === varied) onTheCiItself = onItself;
    const sharedToWorkGroups = onItself ? [shareOf(grant!)] : named === varied ? [] : exactly(named.need);
    ci[named.role] = await createCi(parent === undefined ? { ownerWorkGroup: { id: wg.owner }, sharedToWorkGroups } : { parent: { id: parent }, sharedToWorkGroups });
    ids.push(ci[named.role].id);
  }
  const fixture: Fixture = { ci, extra: {} };
  await act.setup?.(env, fixture);
  return { name: label(s, onTheCiItself), expected: expected(act, varied, standing(s, onTheCiItself)), fixture, ids };
}

async function snapshot(act: Act, c: Case): Promise<unknown> {
  const cis = await Promise.all(
    c.ids.map(async (id) => {
      const a = await k.get(id);
      return { status: a.status, body: a.body };
    }),
  );
  return { cis, more: await act.snapshot?.(env, c.fixture) };
}

/** Runs `fn` over `items`, `limit` at a time, answers in order: the cases of an act are independent. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

const PROBLEM_TYPE: Record<number, string> = { 400: 'bad-request', 403: 'forbidden', 404: 'not-found' };
const CONCURRENCY = 12;

// ---------------------------------------------------------------- the tests

const route = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

t.test('every route under /api/ is in the rights matrix or in the not-CI-scoped set', async (t) => {
  const registered = k.p.platform.http
    .routes()
    .map(route)
    .filter((r) => r.split(' ')[1]!.startsWith('/api/'));
  const inMatrix = new Set(ACTS.map((a) => a.route));
  t.same(
    registered.filter((r) => !inMatrix.has(r) && !(r in NOT_CI_SCOPED)),
    [],
    'a route in neither: add it to ACTS or NOT_CI_SCOPED (rights-matrix.cases.ts)',
  );
  t.same(
    [...inMatrix].filter((r) => r in NOT_CI_SCOPED),
    [],
    'no route in both',
  );
  const known = new Set(registered);
  t.same(
    [...inMatrix, ...Object.keys(NOT_CI_SCOPED)].filter((r) => !known.has(r)),
    [],
    'no entry for a route that is not registered',
  );
});

t.test('the not-CI-scoped routes called "admin only" refuse a user who is not an admin', async (t) => {
  for (const [r, reason] of Object.entries(NOT_CI_SCOPED)) {
    if (!('admin' in reason)) continue;
    const [method, pattern] = r.split(' ') as [string, string];
    const path = pattern.replace(/:name\b/g, 'x').replace(/:\w+/g, '1');
    const answer = await k.api(method, path, { token: tokens.other!, ...(method === 'GET' || method === 'DELETE' ? {} : { json: {} }) });
    t.equal(answer.status, 403, r);
  }
});

t.test('a ConfigItem write grant cannot be turned into the tree below it (#9, #10)', async (t) => {
  const root = await createCi({ ownerWorkGroup: { id: wg.owner }, sharedToWorkGroups: [{ workGroupId: wg.caller, shareType: 'ConfigItem', grants: [WRITE] }] });
  const below = await createCi({ parent: { id: root.id } });
  const grant = (await k.get(root.id)).body.sharedToWorkGroups[0];
  const give = await k.api('POST', `${CIS}/${root.id}/work-groups`, { json: { workGroupId: wg.caller, shareType: 'Tree', grants: [WRITE] }, token: tokens.other! });
  isProblem(t, give, 403, 'forbidden');
  const widen = await k.api('PUT', `${CIS}/${root.id}/work-groups`, { json: { id: grant.id, shareType: 'Tree', grants: [WRITE] }, token: tokens.other! });
  isProblem(t, widen, 403, 'forbidden');
  t.equal((await k.get(below.id, tokens.other!)).status, 403, 'the CI below stays out of reach');
  t.same((await k.get(root.id)).body.sharedToWorkGroups, [grant], 'the grants are as the owner set them');
  t.equal(
    (await k.api('PUT', `${CIS}/${root.id}`, { json: { name: `${root.name}-x`, ownerWorkGroup: { id: wg.owner } }, token: tokens.other! })).status,
    200,
    'the grant still changes the CI',
  );
});

for (const act of ACTS) {
  for (const varied of act.cis) {
    const title = act.cis.length > 1 ? `${act.act}: situations on the ${varied.role} CI` : act.act;
    t.test(`${title} (${act.route})`, async (t) => {
      const cases = await pool(SITUATIONS, CONCURRENCY, (s) => build(act, varied, s));
      const before = await pool(cases, CONCURRENCY, (c) => snapshot(act, c));
      const answers = await pool(
        SITUATIONS.map((s, i) => ({ s, c: cases[i]! })),
        CONCURRENCY,
        ({ s, c }) => {
          const { method, path, json } = act.request(c.fixture, env);
          return k.api(method, path, { ...(json === undefined ? {} : { json }), ...(tokens[s.caller] ? { token: tokens[s.caller] } : {}) });
        },
      );
      const after = await pool(cases, CONCURRENCY, (c) => snapshot(act, c));
      cases.forEach((c, i) => {
        const answer = answers[i]!;
        const got = act.observe && answer.status === 200 ? act.observe(answer, c.fixture) : answer.status;
        const allowed = c.expected === act.ok;
        t.test(`${c.name}: ${allowed ? 'allowed' : 'refused'}`, async (t) => {
          // The status first, on its own: a wrong one reads as "found X, wanted Y", not as five failed problem checks.
          t.equal(got, c.expected, `answers ${c.expected}`);
          if (got === c.expected && typeof c.expected === 'number' && c.expected >= 400) isProblem(t, answer, c.expected, PROBLEM_TYPE[c.expected]!);
          if (!allowed) t.same(after[i], before[i], 'nothing changed');
          else if (act.changes) t.notSame(after[i], before[i], 'the change is visible to the admin');
        });
      });
    });
  }
}
