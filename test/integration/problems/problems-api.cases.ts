/**
 * Issue #30 acceptance, on the embedded platform: GET /problems with every filter, the rights
 * filter, keyset paging, GET /problems/{id}, and the lifecycle actions with their 4xx codes.
 */
import { PROBLEMS } from '../../../services/api/problems/problems.routes.js';
import type { Test } from 'tap';
import type { Answer } from '../../support/http.js';
import { READ, WRITE } from '../cmdb/cmdb-kit.js';
import { MAINT, ProblemsKit } from './problems-kit.js';

/** The cases, on a started kit (embedded or distributed). */
export function problemsApiCases(t: Test, k: ProblemsKit): void {
  const MIN = 60_000;
  const at = (minutes: number) => new Date(k.clock + minutes * MIN).toISOString();

  interface Setup {
    wg: { id: number };
    stream: { id: number; key: string };
    trigger: { id: number; name: string };
  }

  async function setUp(overrides: Record<string, unknown> = {}): Promise<Setup> {
    const wg = await k.workGroup();
    const stream = await k.stream();
    const trigger = await k.trigger(stream.id, overrides);
    return { wg, stream, trigger };
  }

  /** A CI with an open problem opened `minutesAgo` with `severity`. */
  async function problemOn(s: Setup, body: Record<string, unknown> = {}, minutesAgo = 30, severity = 'major'): Promise<{ ci: any; id: string }> {
    const ci = await k.ci({ ownerWorkGroup: { id: s.wg.id }, ...body });
    await k.post(s.stream.key, [{ '@timestamp': at(-minutesAgo), check: 'cpu', host: ci.name, severity }]);
    const rows = await k.problems(ci.id);
    return { ci, id: rows[rows.length - 1]!.id };
  }

  const list = async (query: string, token?: string) => {
    const answer = await k.api('GET', `${PROBLEMS}?${query}`, token ? { token } : {});
    if (answer.status !== 200) throw new Error(`list: ${answer.status} ${answer.text}`);
    return answer.body as { items: any[]; nextCursor: string | null; total?: number };
  };
  /** A problem+json answer with this status and catalogue code. */
  function hasCode(t: Test, answer: Answer, status: number, code: string): void {
    t.equal(answer.status, status, `status ${status}`);
    t.equal(answer.headers.get('content-type'), 'application/problem+json', 'problem+json');
    t.equal(answer.body?.code, code, `code ${code}`);
  }

  const ids = (page: { items: any[] }) => page.items.map((i) => i.id);

  t.test('the default list is the open problems, newest first, each item in the documented shape', async (t) => {
    const s = await setUp();
    const older = await problemOn(s, {}, 40);
    const newer = await problemOn(s, {}, 20);
    const page = await list(`triggerIds=${s.trigger.id}`);
    t.same(ids(page), [newer.id, older.id]);
    t.equal(page.nextCursor, null);
    t.notOk('total' in page, 'total only when asked');
    const item = page.items[0];
    t.same(
      Object.keys(item).sort(),
      ['acknowledged', 'commentsCount', 'configItem', 'dateEnd', 'dateStart', 'duration', 'id', 'inMaintenance', 'incidents', 'influence', 'priority', 'tags', 'trigger'].sort(),
    );
    t.match(item, {
      trigger: { id: s.trigger.id, name: s.trigger.name },
      configItem: { id: newer.ci.id, name: newer.ci.name, configItemType: { id: k.defaultType.id, name: k.defaultType.name } },
      priority: 'Problem2',
      dateStart: at(-20),
      dateEnd: null,
      duration: 20 * MIN,
      influence: { value: 30, maxInfluence: false },
      tags: [{ id: 1, name: 'cpu', colorName: 'red' }],
      acknowledged: null,
      inMaintenance: false,
      commentsCount: 0,
    });
  });

  t.test('state=closed and state=all', async (t) => {
    const s = await setUp();
    const open = await problemOn(s);
    const closed = await problemOn(s, {}, 50);
    await k.post(s.stream.key, [{ '@timestamp': at(-10), check: 'cpu', host: closed.ci.name, status: 'ok' }]);
    t.same(ids(await list(`triggerIds=${s.trigger.id}&state=closed`)), [closed.id]);
    t.same(ids(await list(`triggerIds=${s.trigger.id}&state=all`)), [open.id, closed.id]);
    const item = (await list(`triggerIds=${s.trigger.id}&state=closed`)).items[0];
    t.equal(item.dateEnd, at(-10));
    t.equal(item.duration, 40 * MIN);
  });

  t.test('configItemIds, with and without descendants', async (t) => {
    const s = await setUp();
    const parent = await problemOn(s);
    const child = await problemOn(s, { parent: { id: parent.ci.id } });
    const other = await problemOn(s);
    t.same(ids(await list(`configItemIds=${parent.ci.id}`)), [parent.id]);
    t.same(new Set(ids(await list(`configItemIds=${parent.ci.id}&withDescendants=true`))), new Set([parent.id, child.id]));
    t.same(new Set(ids(await list(`configItemIds=${parent.ci.id},${other.ci.id}&state=all`))), new Set([parent.id, other.id]));
  });

  t.test('priorities, as numbers or names', async (t) => {
    const s = await setUp();
    const critical = await problemOn(s, {}, 30, 'critical');
    const minor = await problemOn(s, {}, 30, 'minor');
    t.same(ids(await list(`triggerIds=${s.trigger.id}&priorities=1`)), [critical.id]);
    t.same(new Set(ids(await list(`triggerIds=${s.trigger.id}&priorities=Problem1,3`))), new Set([critical.id, minor.id]));
    t.same(ids(await list(`triggerIds=${s.trigger.id}&priorities=4`)), []);
  });

  t.test('tags: a name matches name and name=…; name=value matches exactly; repeated tags must all match', async (t) => {
    const s = await setUp({
      tags: [
        { id: 1, name: 'env=prod', colorName: 'red' },
        { id: 2, name: 'db', colorName: 'blue' },
      ],
    });
    const p = await problemOn(s);
    const q = `triggerIds=${s.trigger.id}`;
    t.same(ids(await list(`${q}&tags=env`)), [p.id]);
    t.same(ids(await list(`${q}&tags=env=prod`)), [p.id]);
    t.same(ids(await list(`${q}&tags=env=dev`)), []);
    t.same(ids(await list(`${q}&tags=env&tags=db`)), [p.id]);
    t.same(ids(await list(`${q}&tags=env&tags=web`)), []);
    t.same(ids(await list(`${q}&tags=en`)), [], 'not a prefix match');
  });

  t.test('from/to: problems overlapping the range', async (t) => {
    const s = await setUp();
    const old = await problemOn(s, {}, 120);
    await k.post(s.stream.key, [{ '@timestamp': at(-100), check: 'cpu', host: old.ci.name, status: 'ok' }]);
    const recent = await problemOn(s, {}, 30);
    const q = `triggerIds=${s.trigger.id}&state=all`;
    t.same(ids(await list(`${q}&from=${at(-90)}`)), [recent.id], 'the old one ended before from');
    t.same(ids(await list(`${q}&to=${at(-60)}`)), [old.id], 'the recent one started after to');
    t.same(new Set(ids(await list(`${q}&from=${at(-110)}&to=${at(-20)}`))), new Set([old.id, recent.id]));
  });

  t.test('search: a case-insensitive substring of the trigger or the CI name', async (t) => {
    const s = await setUp({ name: k.uniq('Disk-Latency') });
    const p = await problemOn(s, { name: k.uniq('Mail-Gateway') });
    const q = `triggerIds=${s.trigger.id}`;
    t.same(ids(await list(`${q}&search=disk-lat`)), [p.id], 'by trigger name');
    t.same(ids(await list(`${q}&search=MAIL-gate`)), [p.id], 'by CI name');
    t.same(ids(await list(`${q}&search=nothing-like-it`)), []);
  });

  t.test('acknowledged and inMaintenance', async (t) => {
    const s = await setUp();
    const acked = await problemOn(s);
    const quiet = await problemOn(s);
    const ack = await k.api('POST', `${PROBLEMS}/${acked.id}/acknowledge`, { json: { comment: 'on it' } });
    t.equal(ack.status, 200, ack.text);
    await k.feedSettled();
    const q = `triggerIds=${s.trigger.id}`;
    t.same(ids(await list(`${q}&acknowledged=true`)), [acked.id]);
    t.same(ids(await list(`${q}&acknowledged=false`)), [quiet.id]);
    const mode = await k.api('POST', MAINT, { json: { title: 'patching', dateStart: at(-5), dateEnd: at(60), configItems: [{ id: quiet.ci.id, scope: 'Ci', depth: 0 }] } });
    t.equal(mode.status, 201, mode.text);
    t.same(ids(await list(`${q}&inMaintenance=true`)), [quiet.id]);
    t.same(ids(await list(`${q}&inMaintenance=false`)), [acked.id]);
    t.equal((await list(`${q}&inMaintenance=true`)).items[0].inMaintenance, true);
    for (const state of ['closed', 'all'])
      t.same(ids(await list(`${q}&state=${state}&acknowledged=true`)), state === 'all' ? [acked.id] : [], `the same filters on the store (${state})`);
  });

  t.test('sort by dateStart, priority and duration, each way', async (t) => {
    const s = await setUp();
    const a = await problemOn(s, {}, 50, 'minor');
    const b = await problemOn(s, {}, 40, 'critical');
    const c = await problemOn(s, {}, 30, 'major');
    await k.post(s.stream.key, [{ '@timestamp': at(-35), check: 'cpu', host: a.ci.name, status: 'ok' }]);
    for (const state of ['open', 'all']) {
      const q = `triggerIds=${s.trigger.id}&state=${state}`;
      const open = state === 'open';
      t.same(ids(await list(`${q}&sort=dateStart`)), open ? [b.id, c.id] : [a.id, b.id, c.id], `${state}: dateStart ascending`);
      t.same(ids(await list(`${q}&sort=-dateStart`)), open ? [c.id, b.id] : [c.id, b.id, a.id], `${state}: dateStart descending`);
      t.same(ids(await list(`${q}&sort=priority`)), open ? [b.id, c.id] : [b.id, c.id, a.id], `${state}: priority ascending (Problem1 first)`);
      t.same(ids(await list(`${q}&sort=-priority`)), open ? [c.id, b.id] : [a.id, c.id, b.id], `${state}: priority descending`);
      t.same(ids(await list(`${q}&sort=-duration`)), open ? [b.id, c.id] : [b.id, c.id, a.id], `${state}: longest first (a lasted 15 minutes)`);
      t.same(ids(await list(`${q}&sort=duration`)), open ? [c.id, b.id] : [a.id, c.id, b.id], `${state}: shortest first`);
    }
  });

  t.test('cursor paging: every problem once, also while new problems arrive; total with withTotal', async (t) => {
    const s = await setUp();
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await problemOn(s, {}, 60 - i)).id);
    for (const state of ['open', 'all']) {
      const q = `triggerIds=${s.trigger.id}&state=${state}&limit=3`;
      const seen: string[] = [];
      let page = await list(`${q}&withTotal=true`);
      t.equal(page.total, made.length + (state === 'all' ? 0 : 0));
      seen.push(...ids(page));
      let newcomer: string | undefined;
      while (page.nextCursor) {
        if (!newcomer) newcomer = (await problemOn(s, {}, 1)).id; // newer than every page: before the walk's position
        page = await list(`${q}&cursor=${page.nextCursor}`);
        seen.push(...ids(page));
      }
      t.same(seen, [...made].reverse(), `${state}: each problem once, in order, none lost`);
      made.push(newcomer!);
    }
  });

  t.test('a user sees exactly the problems of the subtree it was granted; the admin sees all', async (t) => {
    const s = await setUp();
    const root = await problemOn(s);
    const child = await problemOn(s, { parent: { id: root.ci.id } });
    const grandchild = await problemOn(s, { parent: { id: child.ci.id } });
    const outside = await problemOn(s);
    const team = await k.team('viewers');
    await k.grant(child.ci.id, team.wg.id, 'Tree', ['base-system.rsm.basic-read']);
    const q = `triggerIds=${s.trigger.id}&state=all`;
    t.same(new Set(ids(await list(q, team.user.token))), new Set([child.id, grandchild.id]));
    t.same(new Set(ids(await list(`${q}&configItemIds=${root.ci.id},${outside.ci.id}`, team.user.token))), new Set(), 'asking for other CIs shows nothing');
    t.same(new Set(ids(await list(q))), new Set([root.id, child.id, grandchild.id, outside.id]));
    const hidden = await k.api('GET', `${PROBLEMS}/${root.id}`, { token: team.user.token });
    hasCode(t, hidden, 404, 'problem.not_found');
  });

  t.test('bad list parameters answer 400 naming the rule', async (t) => {
    for (const [query, code] of [
      ['state=pending', 'problem.query_invalid'],
      ['limit=0', 'problem.query_invalid'],
      ['limit=1001', 'problem.query_invalid'],
      ['limit=1.5', 'problem.query_invalid'],
      ['priorities=5', 'problem.query_invalid'],
      ['configItemIds=1,x', 'problem.query_invalid'],
      ['acknowledged=yes', 'problem.query_invalid'],
      ['from=yesterday', 'problem.query_invalid'],
      [`from=${at(0)}&to=${at(-10)}`, 'problem.query_invalid'],
      ['sort=name', 'problem.query_invalid'],
      ['cursor=not-a-cursor', 'problem.cursor_invalid'],
    ] as const) {
      hasCode(t, await k.api('GET', `${PROBLEMS}?${query}`), 400, code);
    }
    const page = await list('state=all&limit=1');
    if (page.nextCursor) hasCode(t, await k.api('GET', `${PROBLEMS}?state=all&limit=1&sort=priority&cursor=${page.nextCursor}`), 400, 'problem.cursor_invalid');
    hasCode(t, await k.api('GET', PROBLEMS, { token: null }), 401, 'auth.header_missing');
  });

  t.test('GET /problems/{id}: the item, its hits newest first with a cursor, comments and history', async (t) => {
    const s = await setUp();
    const p = await problemOn(s, {}, 30);
    await k.post(
      s.stream.key,
      [20, 10].map((m) => ({ '@timestamp': at(-m), check: 'cpu', host: p.ci.name, severity: 'major' })),
    );
    const [ten, twenty, thirty] = [at(-10), at(-20), at(-30)];
    t.equal((await k.api('POST', `${PROBLEMS}/${p.id}/acknowledge`, { json: { comment: 'looking' } })).status, 200);
    k.tick(1000);
    t.equal((await k.api('POST', `${PROBLEMS}/${p.id}/comments`, { json: { text: 'disk swapped' } })).status, 201);
    const got = await k.api('GET', `${PROBLEMS}/${p.id}?hitsLimit=2`);
    t.equal(got.status, 200, got.text);
    t.equal(got.body.id, p.id);
    t.same(
      got.body.hits.items.map((h: any) => h.at),
      [ten, twenty],
    );
    const more = await k.api('GET', `${PROBLEMS}/${p.id}?hitsLimit=2&hitsCursor=${got.body.hits.nextCursor}`);
    t.same(
      more.body.hits.items.map((h: any) => h.at),
      [thirty],
    );
    t.equal(more.body.hits.nextCursor, null);
    t.match(got.body.comments, [{ byName: k.admin.name, text: 'disk swapped' }]);
    t.same(
      got.body.history.map((h: any) => [h.action, h.text]),
      [
        ['acknowledge', 'looking'],
        ['comment', 'disk swapped'],
      ],
    );
    t.equal(got.body.commentsCount, 1);
    t.match(got.body.acknowledged, { by: k.admin.id, byName: k.admin.name, comment: 'looking' });
    hasCode(t, await k.api('GET', `${PROBLEMS}/not-a-uuid`), 400, 'problem.id_invalid');
    hasCode(t, await k.api('GET', `${PROBLEMS}/00000000-0000-0000-0000-000000000000`), 404, 'problem.not_found');
  });

  t.test('acknowledge and unacknowledge: recorded with who and when', async (t) => {
    const s = await setUp();
    const p = await problemOn(s);
    const acked = await k.api('POST', `${PROBLEMS}/${p.id}/acknowledge`, { json: {} });
    t.equal(acked.status, 200, acked.text);
    t.same(acked.body.acknowledged, { by: k.admin.id, byName: k.admin.name, at: k.iso(), comment: null });
    const back = await k.api('POST', `${PROBLEMS}/${p.id}/unacknowledge`);
    t.equal(back.status, 200, back.text);
    t.equal(back.body.acknowledged, null);
    await k.feedSettled();
    t.equal((await list(`triggerIds=${s.trigger.id}`)).items[0].acknowledged, null);
  });

  t.test('resolve by hand: dateEnd now, the CI back to Ok, and a later firing record opens a new problem', async (t) => {
    const s = await setUp();
    const p = await problemOn(s, {}, 30);
    const resolved = await k.api('POST', `${PROBLEMS}/${p.id}/resolve`, { json: { comment: 'fixed by hand' } });
    t.equal(resolved.status, 200, resolved.text);
    t.equal(resolved.body.dateEnd, k.iso());
    await k.problemsSettled();
    t.equal((await k.getCi(p.ci.id)).state.value, 'Ok');
    t.same(ids(await list(`triggerIds=${s.trigger.id}`)), []);
    await k.post(s.stream.key, [{ '@timestamp': at(1), check: 'cpu', host: p.ci.name, severity: 'major' }]);
    const again = await list(`triggerIds=${s.trigger.id}`);
    t.equal(again.items.length, 1);
    t.not(again.items[0].id, p.id, 'a new problem');
    t.equal(again.items[0].dateStart, at(1));
  });

  t.test('a closed problem cannot be acknowledged, unacknowledged or resolved (409), but takes comments', async (t) => {
    const s = await setUp();
    const p = await problemOn(s, {}, 30);
    await k.post(s.stream.key, [{ '@timestamp': at(-5), check: 'cpu', host: p.ci.name, status: 'ok' }]);
    for (const action of ['acknowledge', 'unacknowledge']) hasCode(t, await k.api('POST', `${PROBLEMS}/${p.id}/${action}`, { json: {} }), 409, 'problem.closed');
    hasCode(t, await k.api('POST', `${PROBLEMS}/${p.id}/resolve`, { json: { comment: 'x' } }), 409, 'problem.closed');
    const comment = await k.api('POST', `${PROBLEMS}/${p.id}/comments`, { json: { text: 'post-mortem: fan' } });
    t.equal(comment.status, 201, comment.text);
    t.match(comment.body, { byName: k.admin.name, text: 'post-mortem: fan', at: k.iso() });
    const got = await k.api('GET', `${PROBLEMS}/${p.id}`);
    t.equal(got.body.commentsCount, 1);
  });

  t.test('a record that closes the problem while an acknowledgement is on its way: 409, not a lost update', async (t) => {
    const s = await setUp();
    const p = await problemOn(s, {}, 30);
    const before = await list(`triggerIds=${s.trigger.id}`);
    t.equal(before.items[0].dateEnd, null, 'the API saw it open');
    // The record reaches the stage first; the acknowledgement, sent on what the API saw, second.
    await k.post(s.stream.key, [{ '@timestamp': at(-1), check: 'cpu', host: p.ci.name, status: 'ok' }]);
    const answers = await k.actions.send([
      {
        id: '7b0e3c1a-0000-4000-8000-000000000001',
        kind: 'acknowledge',
        problemId: p.id,
        triggerId: s.trigger.id,
        ciId: p.ci.id,
        by: { id: k.admin.id, name: k.admin.name },
        at: k.clock,
      },
    ]);
    t.same(
      [...answers.values()].map((a) => a.verdict.refused),
      ['problem.closed'],
    );
    const got = await k.api('GET', `${PROBLEMS}/${p.id}`);
    t.equal(got.body.acknowledged, null, 'nothing was written');
    t.equal(got.body.dateEnd, at(-1));
  });

  t.test('acting needs write on the CI: read-only callers get 403; bodies are checked', async (t) => {
    const s = await setUp();
    const p = await problemOn(s);
    const team = await k.team('readers');
    await k.grant(p.ci.id, team.wg.id, 'ConfigItem', [READ]);
    for (const action of ['acknowledge', 'unacknowledge'])
      hasCode(t, await k.api('POST', `${PROBLEMS}/${p.id}/${action}`, { json: {}, token: team.user.token }), 403, 'problem.write_forbidden');
    hasCode(t, await k.api('POST', `${PROBLEMS}/${p.id}/comments`, { json: { text: 'hi' }, token: team.user.token }), 403, 'problem.write_forbidden');
    const writers = await k.team('writers');
    await k.grant(p.ci.id, writers.wg.id, 'ConfigItem', [WRITE]);
    t.equal((await k.api('POST', `${PROBLEMS}/${p.id}/comments`, { json: { text: 'hi' }, token: writers.user.token })).status, 201);
    hasCode(t, await k.api('POST', `${PROBLEMS}/${p.id}/comments`, { json: { text: '' } }), 400, 'http.body_invalid');
    hasCode(t, await k.api('POST', `${PROBLEMS}/${p.id}/comments`, { json: { text: 'x'.repeat(4001) } }), 400, 'http.body_invalid');
    hasCode(t, await k.api('POST', `${PROBLEMS}/${p.id}/resolve`, { json: {} }), 400, 'http.body_invalid');
  });

  t.test('bulk acknowledgement: the open problems the filters match, answering how many changed', async (t) => {
    const s = await setUp();
    const made = [await problemOn(s, {}, 30, 'critical'), await problemOn(s, {}, 30, 'critical'), await problemOn(s, {}, 30, 'minor')];
    const bulk = await k.api('POST', `${PROBLEMS}/acknowledge`, { json: { filter: { triggerIds: String(s.trigger.id), priorities: '1' }, comment: 'storm' } });
    t.equal(bulk.status, 200, bulk.text);
    t.same(bulk.body, { matched: 2, changed: 2, refused: 0 });
    await k.feedSettled();
    const acked = await list(`triggerIds=${s.trigger.id}&acknowledged=true`);
    t.same(new Set(ids(acked)), new Set([made[0]!.id, made[1]!.id]));
    t.equal(acked.items[0].acknowledged.comment, 'storm');
    hasCode(t, await k.api('POST', `${PROBLEMS}/acknowledge`, { json: { filter: { priorities: '9' } } }), 400, 'problem.query_invalid');
  });
}
