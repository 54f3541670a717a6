/**
 * The CI rights matrix (DESIGN §4, spec 2.8): every share type × right × membership × specific
 * workgroup / `workGroupId 0` × position of the checked CI, against a small oracle written here
 * from the rules (never from the code under test); then the special cases, and `levelsOnAll`
 * against `levelOn` on every matrix model and on a seeded random forest of 2 000 CIs.
 *
 * Rules the oracle encodes:
 * - members of the owner workgroup of the CI or of any of its ancestors hold write on it (a
 *   workgroup owns the subtree below its CI: DESIGN §4a hands the owner's rights to the children
 *   when their parent is deleted with applyGrants);
 * - `ConfigItem` grants count on their CI only, `Tree` on the CI and its descendants,
 *   `ChildrenTree` on the descendants only;
 * - a grant counts when its workgroup is one of the subject's, or is 0 (every workgroup, present
 *   and future: any subject in at least one workgroup);
 * - write ▸ read ▸ monitoring-read ▸ basic-read; the strongest over everything wins;
 * - platform admins hold write on every existing CI; an unknown CI gives None.
 */
import t, { type Test } from 'tap';
import { CmdbSlice } from '../../../../../services/control-plane/cmdb/cmdb.slice.js';
import type { CiRecord, CiRight, GrantRecord, ShareType } from '../../../../../services/control-plane/cmdb/cmdb.types.js';
import { canBasicRead, canRead, canWrite, Level, levelOn, levelsOnAll, type Subject } from '../../../../../services/control-plane/rights/ci-rights.js';
import { seededRandom as prng } from '../../../../support/random.js';

// ---------------------------------------------------------------- fixtures

const RIGHTS: readonly CiRight[] = ['base-system.rsm.basic-read', 'base-system.rsm.monitoring-read', 'base-system.rsm.read', 'base-system.rsm.write'];
const SHARE_TYPES: readonly ShareType[] = ['ConfigItem', 'Tree', 'ChildrenTree'];

/** A workgroup that owns the CIs of the matrix models and that no tested subject belongs to. */
const OWNER_WG = 900;
/** The workgroup a specific grant is made to. */
const GRANTED_WG = 10;
/** An existing workgroup that is not the granted one. */
const OTHER_WG = 11;

interface CiSpec {
  id: number;
  parentId: number | null;
  owner: number;
  grants?: Array<Omit<GrantRecord, 'id'>>;
}

let grantSeq = 0;

function record(spec: CiSpec): CiRecord {
  return {
    id: spec.id,
    name: `ci-${spec.id}`,
    description: '',
    parentId: spec.parentId,
    ownerWorkGroupId: spec.owner,
    typeId: 1,
    labels: null,
    cmdbSystemId: -1,
    cmdbLinks: [],
    grants: (spec.grants ?? []).map((g) => ({ id: ++grantSeq, workGroupId: g.workGroupId, shareType: g.shareType, grants: [...g.grants] })),
    influentialIds: [],
    createdAt: '2024-01-01T00:00:00.000Z',
    createdBy: 1,
    createdByName: 'admin',
    updatedAt: '2024-01-01T00:00:00.000Z',
    updatedBy: 1,
    updatedByName: 'admin',
  };
}

function build(specs: readonly CiSpec[]): CmdbSlice {
  const cmdb = new CmdbSlice();
  for (const spec of specs) cmdb.apply(`ci:${spec.id}`, 'ci', record(spec));
  return cmdb;
}

const subject = (workGroupIds: readonly number[], admin = false): Subject => ({ workGroupIds: new Set(workGroupIds), admin });

// ---------------------------------------------------------------- the oracle (independent of the code under test)

type Name = 'None' | 'BasicRead' | 'MonitoringRead' | 'Read' | 'Write';
/** Weakest first. */
const ORDER: readonly Name[] = ['None', 'BasicRead', 'MonitoringRead', 'Read', 'Write'];
const RIGHT_NAME: Record<CiRight, Name> = {
  'base-system.rsm.basic-read': 'BasicRead',
  'base-system.rsm.monitoring-read': 'MonitoringRead',
  'base-system.rsm.read': 'Read',
  'base-system.rsm.write': 'Write',
};
const AS_LEVEL: Record<Name, Level> = {
  None: Level.None,
  BasicRead: Level.BasicRead,
  MonitoringRead: Level.MonitoringRead,
  Read: Level.Read,
  Write: Level.Write,
};
const stronger = (a: Name, b: Name): Name => (ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b);
const nameOf = (level: Level | undefined): string => (level === undefined ? 'undefined' : (ORDER.find((n) => AS_LEVEL[n] === level) ?? `?${String(level)}`));

/** Oracle over plain CI specs: walks parent ids itself. */
function oracle(specs: ReadonlyMap<number, CiSpec>, who: Subject, ciId: number): Name {
  const ci = specs.get(ciId);
  if (!ci) return 'None';
  if (who.admin) return 'Write';
  const counts = (g: Omit<GrantRecord, 'id'>): boolean => (g.workGroupId === 0 ? who.workGroupIds.size > 0 : who.workGroupIds.has(g.workGroupId));
  const best = (g: Omit<GrantRecord, 'id'>): Name => g.grants.reduce<Name>((acc, r) => stronger(acc, RIGHT_NAME[r]), 'None');
  let level: Name = who.workGroupIds.has(ci.owner) ? 'Write' : 'None';
  for (const g of ci.grants ?? []) if ((g.shareType === 'ConfigItem' || g.shareType === 'Tree') && counts(g)) level = stronger(level, best(g));
  const seen = new Set<number>([ciId]);
  for (let up = ci.parentId; up !== null && !seen.has(up);) {
    seen.add(up);
    const ancestor = specs.get(up);
    if (!ancestor) break;
    if (who.workGroupIds.has(ancestor.owner)) level = 'Write';
    for (const g of ancestor.grants ?? []) if ((g.shareType === 'Tree' || g.shareType === 'ChildrenTree') && counts(g)) level = stronger(level, best(g));
    up = ancestor.parentId;
  }
  return level;
}

const byId = (specs: readonly CiSpec[]): Map<number, CiSpec> => new Map(specs.map((s) => [s.id, s]));

/** levelsOnAll covers exactly the CIs of the slice and agrees with levelOn on each. */
function checkAllAgree(t: Test, cmdb: CmdbSlice, who: Subject, label: string): void {
  const all = levelsOnAll(cmdb, who);
  t.equal(all.size, cmdb.cis.size, `${label}: levelsOnAll has one entry per CI`);
  let mismatches = 0;
  for (const id of cmdb.cis.keys()) {
    const one = levelOn(cmdb, who, id);
    if (all.get(id) !== one) {
      mismatches++;
      if (mismatches <= 10) t.fail(`${label}: CI ${id}: levelsOnAll ${nameOf(all.get(id))} ≠ levelOn ${nameOf(one)}`);
    }
  }
  t.equal(mismatches, 0, `${label}: levelsOnAll agrees with levelOn on every CI`);
}

// ---------------------------------------------------------------- the matrix

/**
 * Model of every matrix case: 1 ─ 2 (granted) ─ 3 (child) ─ 4 (grandchild), plus a sibling 5 of
 * 2, all owned by OWNER_WG. Positions checked: the granted CI, its child, its grandchild; and as
 * extras its parent and its sibling (a grant never flows up or sideways).
 */
const GRANTED = 2;
const POSITIONS = [
  { name: 'the granted CI itself', id: 2, depth: 0 },
  { name: 'its child (granted CI one ancestor up)', id: 3, depth: 1 },
  { name: 'its grandchild (granted CI two ancestors up)', id: 4, depth: 2 },
] as const;

function matrixModel(grant: Omit<GrantRecord, 'id'>): CiSpec[] {
  return [
    { id: 1, parentId: null, owner: OWNER_WG },
    { id: GRANTED, parentId: 1, owner: OWNER_WG, grants: [grant] },
    { id: 3, parentId: GRANTED, owner: OWNER_WG },
    { id: 4, parentId: 3, owner: OWNER_WG },
    { id: 5, parentId: 1, owner: OWNER_WG },
  ];
}

/** Expected level of a single-grant matrix case, straight from the rules (a second, explicit oracle). */
function matrixExpectation(shareType: ShareType, right: CiRight, member: boolean, toAll: boolean, depth: number): Name {
  const applies = toAll || member;
  const covers = shareType === 'ConfigItem' ? depth === 0 : shareType === 'Tree' ? true : depth >= 1;
  return applies && covers ? RIGHT_NAME[right] : 'None';
}

let matrixCases = 0;
t.test('rights matrix: share type × right × membership × workgroup × position', async (t) => {
  for (const shareType of SHARE_TYPES) {
    for (const right of RIGHTS) {
      for (const toAll of [false, true]) {
        for (const member of [true, false]) {
          const grant = { workGroupId: toAll ? 0 : GRANTED_WG, shareType, grants: [right] };
          const specs = matrixModel(grant);
          const cmdb = build(specs);
          const who = subject(member ? [GRANTED_WG] : [OTHER_WG]);
          const grantName = `${shareType} ${right.slice('base-system.rsm.'.length)} to ${toAll ? 'workGroupId 0' : `workgroup ${GRANTED_WG}`}`;
          const whoName = member ? `member of workgroup ${GRANTED_WG}` : `member of workgroup ${OTHER_WG} only (not the granted one)`;
          for (const position of POSITIONS) {
            matrixCases++;
            const expected = matrixExpectation(shareType, right, member, toAll, position.depth);
            t.test(`${grantName}; ${whoName}; checked: ${position.name} → ${expected}`, async (t) => {
              t.equal(oracle(byId(specs), who, position.id), expected, 'the two oracles agree');
              const actual = levelOn(cmdb, who, position.id);
              t.equal(actual, AS_LEVEL[expected], `levelOn gives ${nameOf(actual)}, expected ${expected}`);
              t.equal(levelsOnAll(cmdb, who).get(position.id), AS_LEVEL[expected], 'levelsOnAll gives the same');
            });
          }
          // Extras on the same model: nothing flows up to the parent or sideways to the sibling.
          t.test(`${grantName}; ${whoName}; parent and sibling of the granted CI → None`, async (t) => {
            t.equal(levelOn(cmdb, who, 1), Level.None, 'parent');
            t.equal(levelOn(cmdb, who, 5), Level.None, 'sibling');
            checkAllAgree(t, cmdb, who, 'matrix model');
            for (const id of cmdb.cis.keys()) t.equal(levelOn(cmdb, who, id), AS_LEVEL[oracle(byId(specs), who, id)], `CI ${id} matches the oracle`);
          });
        }
      }
    }
  }
  t.equal(matrixCases, SHARE_TYPES.length * RIGHTS.length * 2 * 2 * POSITIONS.length, 'every combination was generated');
});

// ---------------------------------------------------------------- the special cases

t.test('ownership', async (t) => {
  t.test('members of the owner workgroup hold write on the CI', async (t) => {
    const cmdb = build([{ id: 1, parentId: null, owner: 5 }]);
    t.equal(levelOn(cmdb, subject([5]), 1), Level.Write);
    t.equal(levelOn(cmdb, subject([7, 5]), 1), Level.Write, 'any of the subject’s workgroups');
    t.equal(levelOn(cmdb, subject([7]), 1), Level.None, 'a non-member gets nothing');
    t.equal(levelOn(cmdb, subject([]), 1), Level.None, 'a user in no workgroup gets nothing');
    t.equal(levelsOnAll(cmdb, subject([5])).get(1), Level.Write);
  });

  t.test('owning an ancestor gives write on the subtree, even on CIs owned by another workgroup', async (t) => {
    const specs: CiSpec[] = [
      { id: 1, parentId: null, owner: 5 },
      { id: 2, parentId: 1, owner: 6 },
      { id: 3, parentId: 2, owner: 6 },
    ];
    const cmdb = build(specs);
    const who = subject([5]);
    t.equal(levelOn(cmdb, who, 1), Level.Write, 'write on its own CI');
    t.equal(levelOn(cmdb, who, 2), Level.Write, 'child owned by workgroup 6');
    t.equal(levelOn(cmdb, who, 3), Level.Write, 'grandchild owned by workgroup 6');
    t.equal(levelsOnAll(cmdb, who).get(2), Level.Write, 'levelsOnAll: child');
    t.equal(levelOn(cmdb, subject([6]), 2), Level.Write, 'the child’s own owner holds write');
    t.equal(levelOn(cmdb, subject([6]), 1), Level.None, 'ownership does not reach up to the parent');
  });
});

t.test('the strongest right wins', async (t) => {
  t.test('several grants on the CI and its ancestors, one workgroup', async (t) => {
    const specs: CiSpec[] = [
      { id: 1, parentId: null, owner: OWNER_WG, grants: [{ workGroupId: 10, shareType: 'Tree', grants: ['base-system.rsm.monitoring-read'] }] },
      { id: 2, parentId: 1, owner: OWNER_WG, grants: [{ workGroupId: 10, shareType: 'ChildrenTree', grants: ['base-system.rsm.read'] }] },
      {
        id: 3,
        parentId: 2,
        owner: OWNER_WG,
        grants: [
          { workGroupId: 10, shareType: 'ConfigItem', grants: ['base-system.rsm.basic-read'] },
          { workGroupId: 0, shareType: 'ConfigItem', grants: ['base-system.rsm.basic-read'] },
        ],
      },
    ];
    const cmdb = build(specs);
    const who = subject([10]);
    t.equal(levelOn(cmdb, who, 1), Level.MonitoringRead, 'CI 1: its Tree grant');
    t.equal(levelOn(cmdb, who, 2), Level.MonitoringRead, 'CI 2: inherited Tree; its own ChildrenTree does not count on itself');
    t.equal(levelOn(cmdb, who, 3), Level.Read, 'CI 3: the parent’s ChildrenTree read beats the rest');
    checkAllAgree(t, cmdb, who, 'several grants');
  });

  t.test('the CI’s own grant beats a weaker inherited one', async (t) => {
    const cmdb = build([
      { id: 1, parentId: null, owner: OWNER_WG, grants: [{ workGroupId: 10, shareType: 'Tree', grants: ['base-system.rsm.basic-read'] }] },
      { id: 2, parentId: 1, owner: OWNER_WG, grants: [{ workGroupId: 10, shareType: 'ConfigItem', grants: ['base-system.rsm.write'] }] },
      { id: 3, parentId: 2, owner: OWNER_WG },
    ]);
    t.equal(levelOn(cmdb, subject([10]), 2), Level.Write);
    t.equal(levelOn(cmdb, subject([10]), 3), Level.BasicRead, 'ConfigItem write does not reach the child');
  });

  t.test('several workgroups of the subject: the strongest of them', async (t) => {
    const cmdb = build([
      {
        id: 1,
        parentId: null,
        owner: OWNER_WG,
        grants: [
          { workGroupId: 10, shareType: 'Tree', grants: ['base-system.rsm.basic-read'] },
          { workGroupId: 11, shareType: 'ChildrenTree', grants: ['base-system.rsm.write'] },
          { workGroupId: 12, shareType: 'ConfigItem', grants: ['base-system.rsm.read'] },
        ],
      },
      { id: 2, parentId: 1, owner: OWNER_WG },
    ]);
    const who = subject([10, 11, 12]);
    t.equal(levelOn(cmdb, who, 1), Level.Read, 'CI 1: read (12) beats basic-read (10); 11’s ChildrenTree does not count');
    t.equal(levelOn(cmdb, who, 2), Level.Write, 'CI 2: write (11) beats basic-read (10)');
    t.equal(levelOn(cmdb, subject([10]), 2), Level.BasicRead, 'workgroup 10 alone');
    checkAllAgree(t, cmdb, who, 'several workgroups');
  });

  t.test('a grant listing several rights gives the strongest', async (t) => {
    for (const grants of [
      ['base-system.rsm.basic-read', 'base-system.rsm.write'],
      ['base-system.rsm.write', 'base-system.rsm.basic-read'],
    ] as CiRight[][]) {
      const cmdb = build([{ id: 1, parentId: null, owner: OWNER_WG, grants: [{ workGroupId: 10, shareType: 'ConfigItem', grants }] }]);
      t.equal(levelOn(cmdb, subject([10]), 1), Level.Write, `[${grants.join(', ')}] → write`);
    }
    const cmdb = build([
      { id: 1, parentId: null, owner: OWNER_WG, grants: [{ workGroupId: 10, shareType: 'Tree', grants: ['base-system.rsm.read', 'base-system.rsm.monitoring-read'] }] },
      { id: 2, parentId: 1, owner: OWNER_WG },
    ]);
    t.equal(levelOn(cmdb, subject([10]), 2), Level.Read, '[read, monitoring-read] → read, inherited');
  });

  t.test('a grant with the same right both ways (ConfigItem read + ChildrenTree write) splits at the CI', async (t) => {
    const cmdb = build([
      {
        id: 1,
        parentId: null,
        owner: OWNER_WG,
        grants: [
          { workGroupId: 10, shareType: 'ConfigItem', grants: ['base-system.rsm.read'] },
          { workGroupId: 10, shareType: 'ChildrenTree', grants: ['base-system.rsm.write'] },
        ],
      },
      { id: 2, parentId: 1, owner: OWNER_WG },
    ]);
    t.equal(levelOn(cmdb, subject([10]), 1), Level.Read);
    t.equal(levelOn(cmdb, subject([10]), 2), Level.Write);
  });
});

t.test('platform admins hold write everywhere', async (t) => {
  const cmdb = build([
    { id: 1, parentId: null, owner: 5 },
    { id: 2, parentId: 1, owner: 6 },
    { id: 3, parentId: null, owner: 7, grants: [{ workGroupId: 8, shareType: 'ConfigItem', grants: ['base-system.rsm.basic-read'] }] },
  ]);
  for (const who of [subject([], true), subject([8], true), subject([5], true)]) {
    for (const id of [1, 2, 3]) t.equal(levelOn(cmdb, who, id), Level.Write, `admin in [${[...who.workGroupIds].join(',')}], CI ${id}`);
    const all = levelsOnAll(cmdb, who);
    t.same(
      [...all.entries()].sort((a, b) => a[0] - b[0]),
      [
        [1, Level.Write],
        [2, Level.Write],
        [3, Level.Write],
      ],
      'levelsOnAll: write on every CI',
    );
  }
});

t.test('an unknown CI gives None', async (t) => {
  const cmdb = build([{ id: 1, parentId: null, owner: 5, grants: [{ workGroupId: 0, shareType: 'Tree', grants: ['base-system.rsm.write'] }] }]);
  t.equal(levelOn(cmdb, subject([5]), 999), Level.None, 'owner-workgroup member');
  t.equal(levelOn(cmdb, subject([42]), 999), Level.None, 'covered by a workGroupId 0 Tree grant elsewhere');
  t.equal(levelOn(cmdb, subject([], true), 999), Level.None, 'admin');
  t.equal(levelOn(new CmdbSlice(), subject([5]), 1), Level.None, 'empty CMDB');
  t.equal(levelsOnAll(cmdb, subject([5])).has(999), false, 'levelsOnAll has no entry for it');
  t.equal(levelsOnAll(new CmdbSlice(), subject([5])).size, 0, 'levelsOnAll of an empty CMDB');
  t.equal(levelsOnAll(new CmdbSlice(), subject([], true)).size, 0, 'levelsOnAll of an empty CMDB, admin');
  // A CI whose parent record is absent is treated as a root by both functions.
  const orphan = build([{ id: 2, parentId: 77, owner: 5 }]);
  t.equal(levelOn(orphan, subject([5]), 2), Level.Write);
  checkAllAgree(t, orphan, subject([5]), 'orphan');
});

t.test('workGroupId 0 covers a workgroup created after the grant', async (t) => {
  // The workgroups that exist when the grant is made: 10 and 11.
  const cmdb = build([
    { id: 1, parentId: null, owner: 10, grants: [{ workGroupId: 0, shareType: 'Tree', grants: ['base-system.rsm.monitoring-read'] }] },
    { id: 2, parentId: 1, owner: 11, grants: [{ workGroupId: 0, shareType: 'ChildrenTree', grants: ['base-system.rsm.read'] }] },
    { id: 3, parentId: 2, owner: 11, grants: [{ workGroupId: 0, shareType: 'ConfigItem', grants: ['base-system.rsm.basic-read'] }] },
    { id: 4, parentId: null, owner: 11, grants: [{ workGroupId: 0, shareType: 'ConfigItem', grants: ['base-system.rsm.write'] }] },
  ]);
  // Later, workgroup 12345 is created and a user joins it.
  const newcomer = subject([12345]);
  t.equal(levelOn(cmdb, newcomer, 1), Level.MonitoringRead, 'Tree on the CI');
  t.equal(levelOn(cmdb, newcomer, 2), Level.MonitoringRead, 'Tree inherited; ChildrenTree not on its own CI');
  t.equal(levelOn(cmdb, newcomer, 3), Level.Read, 'ChildrenTree from the parent');
  t.equal(levelOn(cmdb, newcomer, 4), Level.Write, 'ConfigItem');
  checkAllAgree(t, cmdb, newcomer, 'newcomer');
  const all = levelsOnAll(cmdb, newcomer);
  t.same(
    [1, 2, 3, 4].map((id) => all.get(id)),
    [Level.MonitoringRead, Level.MonitoringRead, Level.Read, Level.Write],
  );
});

t.test('moving a CI moves its inherited rights', async (t) => {
  const specs: CiSpec[] = [
    { id: 1, parentId: null, owner: OWNER_WG, grants: [{ workGroupId: 10, shareType: 'Tree', grants: ['base-system.rsm.read'] }] },
    { id: 2, parentId: null, owner: OWNER_WG },
    { id: 3, parentId: 1, owner: OWNER_WG },
    { id: 4, parentId: 3, owner: OWNER_WG },
  ];
  const cmdb = build(specs);
  const who = subject([10]);
  t.equal(levelOn(cmdb, who, 4), Level.Read);
  cmdb.apply('ci:3', 'ci', record({ id: 3, parentId: 2, owner: OWNER_WG }));
  t.equal(levelOn(cmdb, who, 3), Level.None, 'moved under a CI without grants');
  t.equal(levelOn(cmdb, who, 4), Level.None, 'and its subtree with it');
  t.equal(levelsOnAll(cmdb, who).get(4), Level.None, 'levelsOnAll follows the move');
  cmdb.apply('ci:2', 'ci', null);
  checkAllAgree(t, cmdb, who, 'after deleting the new parent');
});

t.test('the can* helpers follow the implication order', async (t) => {
  const table: Array<[Level, boolean, boolean, boolean]> = [
    [Level.None, false, false, false],
    [Level.BasicRead, true, false, false],
    [Level.MonitoringRead, true, false, false],
    [Level.Read, true, true, false],
    [Level.Write, true, true, true],
  ];
  for (const [level, basic, read, write] of table) {
    t.equal(canBasicRead(level), basic, `canBasicRead(${nameOf(level)})`);
    t.equal(canRead(level), read, `canRead(${nameOf(level)})`);
    t.equal(canWrite(level), write, `canWrite(${nameOf(level)})`);
  }
  t.ok(Level.None < Level.BasicRead && Level.BasicRead < Level.MonitoringRead && Level.MonitoringRead < Level.Read && Level.Read < Level.Write, 'levels are ordered');
});

// ---------------------------------------------------------------- random forest

/**
 * 2 000 CIs: each is a root, an orphan (parent absent from the CMDB), a child of the previous CI
 * (deep chains) or of a random earlier CI; ~40 % carry 1–3 random grants (random workgroup in
 * 0..ownerRange, share type and non-empty set of rights).
 */
function randomForest(seed: number, owners: () => number): CiSpec[] {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const specs: CiSpec[] = [];
  for (let id = 1; id <= 2000; id++) {
    const r = rnd();
    const parentId = id === 1 || r < 0.04 ? null : r < 0.06 ? 100000 + id : r < 0.4 ? id - 1 : 1 + Math.floor(rnd() * (id - 1));
    const grants: Array<Omit<GrantRecord, 'id'>> = [];
    if (rnd() < 0.4) {
      const n = 1 + Math.floor(rnd() * 3);
      for (let i = 0; i < n; i++) {
        const rights = RIGHTS.filter(() => rnd() < 0.35);
        grants.push({ workGroupId: rnd() < 0.1 ? 0 : 1 + Math.floor(rnd() * 20), shareType: pick(SHARE_TYPES), grants: rights.length > 0 ? rights : [pick(RIGHTS)] });
      }
    }
    specs.push({ id, parentId, owner: owners(), grants });
  }
  return specs;
}

function randomSubjects(seed: number): Subject[] {
  const rnd = prng(seed);
  const subjects: Subject[] = [subject([]), subject([], true), subject([12345])];
  for (let i = 0; i < 12; i++) {
    const ids: number[] = [];
    for (let w = 1; w <= 20; w++) if (rnd() < 0.12) ids.push(w);
    subjects.push(subject(ids));
  }
  return subjects;
}

t.test('random forest of 2 000 CIs: levelsOnAll agrees with levelOn on every CI', async (t) => {
  const ownerRnd = prng(7);
  const specs = randomForest(20240601, () => 1 + Math.floor(ownerRnd() * 20));
  const cmdb = build(specs);
  t.equal(cmdb.cis.size, 2000);
  const depth = Math.max(...specs.map((s) => [...cmdb.ancestors(s.id)].length));
  t.ok(depth >= 10, `the forest has deep chains (max depth ${depth})`);
  for (const [i, who] of randomSubjects(99).entries()) {
    checkAllAgree(t, cmdb, who, `subject ${i} [${[...who.workGroupIds].join(',')}]${who.admin ? ' admin' : ''}`);
  }
});

t.test('random forest of 2 000 CIs, owners outside the subjects’ workgroups: grants match the oracle', async (t) => {
  // Owners are never one of the subjects' workgroups, so this isolates the grant rules.
  const ownerRnd = prng(8);
  const specs = randomForest(777, () => 500 + Math.floor(ownerRnd() * 20));
  const cmdb = build(specs);
  const index = byId(specs);
  for (const [i, who] of randomSubjects(100).entries()) {
    const all = levelsOnAll(cmdb, who);
    let wrong = 0;
    for (const spec of specs) {
      const expected = AS_LEVEL[oracle(index, who, spec.id)];
      const one = levelOn(cmdb, who, spec.id);
      if (one !== expected || all.get(spec.id) !== expected) {
        wrong++;
        if (wrong <= 10) t.fail(`subject ${i}: CI ${spec.id}: expected ${nameOf(expected)}, levelOn ${nameOf(one)}, levelsOnAll ${nameOf(all.get(spec.id))}`);
      }
    }
    t.equal(wrong, 0, `subject ${i} [${[...who.workGroupIds].join(',')}]${who.admin ? ' admin' : ''}: every CI matches the oracle`);
  }
});

t.test('random forest of 2 000 CIs, random owners: levelOn matches the oracle', async (t) => {
  // Same as above with owners among the subjects' workgroups: also checks ownership.
  const ownerRnd = prng(9);
  const specs = randomForest(4242, () => 1 + Math.floor(ownerRnd() * 20));
  const cmdb = build(specs);
  const index = byId(specs);
  for (const [i, who] of randomSubjects(101).entries()) {
    let wrong = 0;
    for (const spec of specs) {
      const expected = AS_LEVEL[oracle(index, who, spec.id)];
      const one = levelOn(cmdb, who, spec.id);
      if (one !== expected) {
        wrong++;
        if (wrong <= 3) t.fail(`subject ${i}: CI ${spec.id}: expected ${nameOf(expected)}, levelOn ${nameOf(one)}`);
      }
    }
    t.equal(wrong, 0, `subject ${i} [${[...who.workGroupIds].join(',')}]${who.admin ? ' admin' : ''}: every CI matches the oracle`);
  }
});
