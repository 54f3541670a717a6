/**
 * Issue #31, which policies select an event (pipelines/notifications/policy-match.ts). The CMDB:
 *
 *   1 site            (env=prod)
 *   ├─ 2 rack         (env=prod)
 *   │  └─ 3 db-1      (env=prod, tier=[db, critical])
 *   └─ 4 lab-1        (env=test, legacy)          workgroup 10 may NOT read it
 *   5 web-1           (env=prod, tier=web)
 *
 * Workgroup 10 reads 1, 2, 3 and 5; workgroup 20 reads only 5. Each table row: a policy's
 * condition and the CIs on which a problem is selected by it.
 */
import t from 'tap';
import type { NotificationEvent, NotifiedProblem } from '../../../../schemas/notification-events.schema.js';
import { type CiLabels, type CmdbView, listsKind, matchPolicies, type PolicyRule, selectsCi } from '../../../../pipelines/notifications/policy-match.js';

const CIS = [1, 2, 3, 4, 5];
const children: Record<number, number[]> = { 1: [2, 4], 2: [3] };
const labels: Record<number, CiLabels> = {
  1: { env: 'prod' },
  2: { env: 'prod' },
  3: { env: 'prod', tier: ['db', 'critical'] },
  4: { env: 'test', legacy: null },
  5: { env: 'prod', tier: 'web' },
};
const readable: Record<number, number[]> = { 10: [1, 2, 3, 5], 20: [5] };
const CMDB: CmdbView = {
  descendantsOf: function* below(ciId: number): Generator<number> {
    for (const child of children[ciId] ?? []) {
      yield child;
      yield* below(child);
    }
  },
  labelsOf: (ciId) => labels[ciId] ?? null,
  canRead: (workGroupId, ciId) => readable[workGroupId]?.includes(ciId) ?? false,
};

const policy = (over: Partial<PolicyRule> = {}): PolicyRule => ({
  id: 1,
  ownerWorkGroupId: 10,
  configItems: 'all',
  priorities: [],
  triggerIds: [],
  tags: [],
  kinds: [],
  receiverIds: [1],
  groupWindowSeconds: 30,
  repeatIntervalSeconds: null,
  ...over,
});

const problem = (ciId: number, over: Partial<NotifiedProblem> = {}): NotifiedProblem => ({
  id: `P${ciId}`,
  trigger: { id: 100, name: 'disk full' },
  configItem: { id: ciId, name: `ci-${ciId}` },
  priority: 'Problem2',
  dateStart: '2026-11-02T08:00:00.000Z',
  dateEnd: null,
  tags: [
    { name: 'service', value: 'billing' },
    { name: 'team', value: null },
  ],
  acknowledged: false,
  ...over,
});
const opened = (p: NotifiedProblem): NotificationEvent => ({ id: `${p.id}:opened`, time: p.dateStart, kind: 'problem.opened', problem: p });

/** The CIs on which an opened problem is selected by `rule`. */
const selectedCis = (rule: PolicyRule, over: Partial<NotifiedProblem> = {}) => CIS.filter((ci) => matchPolicies([rule], opened(problem(ci, over)), CMDB).length > 0);

t.test('CI selectors, and the owning workgroup’s read rights over them', async (t) => {
  const rows: Array<[string, Partial<PolicyRule>, number[]]> = [
    ['ids [2]', { configItems: { ids: [2], withDescendants: false } }, [2]],
    ['ids [1] with descendants (4 is not readable)', { configItems: { ids: [1], withDescendants: true } }, [1, 2, 3]],
    ['ids [2] with descendants', { configItems: { ids: [2], withDescendants: true } }, [2, 3]],
    ['ids [2, 5] with descendants', { configItems: { ids: [2, 5], withDescendants: true } }, [2, 3, 5]],
    ['ids [4]: never readable', { configItems: { ids: [4], withDescendants: true } }, []],
    ['labels env=prod', { configItems: { labels: ['env=prod'] } }, [1, 2, 3, 5]],
    ['labels env=prod, tier=db (a value in a list)', { configItems: { labels: ['env=prod', 'tier=db'] } }, [3]],
    ['labels tier (any value)', { configItems: { labels: ['tier'] } }, [3, 5]],
    ['labels tier, env=prod, tier=critical: all must match', { configItems: { labels: ['tier', 'env=prod', 'tier=critical'] } }, [3]],
    ['labels env=test: only CI 4, not readable', { configItems: { labels: ['env=test'] } }, []],
    ['labels legacy (a label without value), not readable', { configItems: { labels: ['legacy'] } }, []],
    ['labels tier=prod: the value of another label', { configItems: { labels: ['tier=prod'] } }, []],
    ['labels []: no condition', { configItems: { labels: [] } }, [1, 2, 3, 5]],
    ['all', { configItems: 'all' }, [1, 2, 3, 5]],
    ['all, owned by workgroup 20', { configItems: 'all', ownerWorkGroupId: 20 }, [5]],
    ['ids [1] with descendants, owned by workgroup 20', { configItems: { ids: [1], withDescendants: true }, ownerWorkGroupId: 20 }, []],
  ];
  for (const [name, over, cis] of rows) t.same(selectedCis(policy(over)), cis, name);
  const anyone: CmdbView = { ...CMDB, canRead: () => true };
  t.ok(selectsCi(policy({ configItems: { labels: ['legacy'] } }), 4, anyone), 'CI 4 carries the label: only the rights kept it out');
});

t.test('priorities, triggers and tags: every condition must hold, an empty list is none', async (t) => {
  const rows: Array<[string, Partial<PolicyRule>, Partial<NotifiedProblem>, boolean]> = [
    ['priorities [] selects any', { priorities: [] }, { priority: 'Problem4' }, true],
    ['priorities [1, 2] selects Problem2', { priorities: ['Problem1', 'Problem2'] }, {}, true],
    ['priorities [1] not Problem2', { priorities: ['Problem1'] }, {}, false],
    ['triggers [100] selects trigger 100', { triggerIds: [100] }, {}, true],
    ['triggers [101] not trigger 100', { triggerIds: [101] }, {}, false],
    ['tags [service]: any value', { tags: ['service'] }, {}, true],
    ['tags [service=billing]', { tags: ['service=billing'] }, {}, true],
    ['tags [service=shop]', { tags: ['service=shop'] }, {}, false],
    ['tags [service=billing, team]: both', { tags: ['service=billing', 'team'] }, {}, true],
    ['tags [service=billing, owner]: one missing', { tags: ['service=billing', 'owner'] }, {}, false],
    ['tags [team=]: an empty value is not "no value"', { tags: ['team='] }, {}, false],
    ['all together', { priorities: ['Problem2'], triggerIds: [100], tags: ['team'], configItems: { ids: [2], withDescendants: true } }, {}, true],
    ['all together but the CI', { priorities: ['Problem2'], triggerIds: [100], tags: ['team'], configItems: { ids: [5], withDescendants: true } }, {}, false],
  ];
  for (const [name, over, problemOver, selected] of rows) {
    t.equal(matchPolicies([policy(over)], opened(problem(3, problemOver)), CMDB).length > 0, selected, name);
  }
});

t.test('several policies: those that select the event, in the order given', async (t) => {
  const policies = [policy({ id: 1, priorities: ['Problem1'] }), policy({ id: 2 }), policy({ id: 3, ownerWorkGroupId: 20 }), policy({ id: 4, triggerIds: [100] })];
  t.same(
    matchPolicies(policies, opened(problem(3)), CMDB).map((m) => m.policy.id),
    [2, 4],
  );
});

t.test('a maintenance event: selected by any of its CIs, and seen with only the CIs the policy selects', async (t) => {
  const event: NotificationEvent = {
    id: 'mode-9:start',
    time: '2026-11-02T08:00:00.000Z',
    kind: 'maintenance.started',
    maintenance: {
      id: 9,
      title: 'patching',
      windowStart: '2026-11-02T08:00:00.000Z',
      windowEnd: '2026-11-02T10:00:00.000Z',
      configItems: [
        { id: 3, name: 'ci-3' },
        { id: 4, name: 'ci-4' },
        { id: 5, name: 'ci-5' },
      ],
    },
  };
  const [all, web, none] = [policy({ id: 1 }), policy({ id: 2, configItems: { labels: ['tier=web'] } }), policy({ id: 3, configItems: { ids: [2], withDescendants: false } })];
  const matches = matchPolicies([all, web, none], event, CMDB);
  t.same(
    matches.map((m) => [m.policy.id, m.event.kind === 'maintenance.started' ? m.event.maintenance.configItems.map((ci) => ci.id) : null]),
    [
      [1, [3, 5]], // 4 is not readable: left out
      [2, [5]],
    ],
  );
  t.equal(matches[0]!.event.id, event.id, 'the same happening: the same event id');
  // Priority, trigger and tag conditions are no condition for an event that has none.
  t.equal(matchPolicies([policy({ priorities: ['Problem1'], triggerIds: [1], tags: ['x'] })], event, CMDB).length, 1);
});

t.test('an SLA event and a flapping event are selected by their CI (and the flapping one by its trigger)', async (t) => {
  const sla: NotificationEvent = {
    id: 'sla-1',
    time: '2026-11-02T08:00:00.000Z',
    kind: 'sla.budget_burning',
    template: { id: 1, name: 'gold' },
    configItem: { id: 4, name: 'ci-4' },
    burnRate: 14.4,
    threshold: 14.4,
    budgetLeft: 0.5,
  };
  t.equal(matchPolicies([policy()], sla, CMDB).length, 0, 'CI 4 is not readable');
  t.equal(matchPolicies([policy()], { ...sla, configItem: { id: 5, name: 'ci-5' } }, CMDB).length, 1);
  const flapping: NotificationEvent = {
    id: 'f',
    time: '2026-11-02T08:00:00.000Z',
    kind: 'problem.flapping',
    trigger: { id: 100, name: 'disk full' },
    configItem: { id: 3, name: 'ci-3' },
    transitions: 6,
    windowSeconds: 600,
  };
  t.equal(matchPolicies([policy({ triggerIds: [100], priorities: ['Problem1'] })], flapping, CMDB).length, 1);
  t.equal(matchPolicies([policy({ triggerIds: [101] })], flapping, CMDB).length, 0);
});

t.test('kinds are checked last: empty lists every kind', async (t) => {
  t.ok(listsKind(policy({ kinds: [] }), 'sla.budget_burning'));
  t.ok(listsKind(policy({ kinds: ['problem.opened', 'problem.resolved'] }), 'problem.resolved'));
  t.notOk(listsKind(policy({ kinds: ['problem.opened'] }), 'problem.resolved'));
  t.equal(matchPolicies([policy({ kinds: ['maintenance.started'] })], opened(problem(3)), CMDB).length, 1, 'a policy selects a problem whatever its kinds');
});
