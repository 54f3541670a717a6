/**
 * Issue #30 acceptance: GET /problems/stream, the live changes as Server-Sent Events: one event per
 * change with the problem as data, filtered like the list and by the caller's rights at each
 * event, resumable with Last-Event-ID, a `reset` when the position is unknown, keep-alives.
 */
import type { Test } from 'tap';
import { PROBLEMS } from '../../../services/api/problems/problems.routes.js';
import { ADMIN_TOKEN } from '../../support/platform.js';
import { openSse, type SseClient, type SseEvent } from '../../support/sse.js';
import type { ProblemsKit } from './problems-kit.js';

/** The cases, on a started kit (embedded or distributed). */
export function problemsStreamCases(t: Test, k: ProblemsKit): void {
  const at = (minutes: number) => new Date(k.clock + minutes * 60_000).toISOString();
  const STREAM = `${PROBLEMS}/stream`;

  async function subscribe(t: Test, query: string, headers: Record<string, string> = {}, token = ADMIN_TOKEN): Promise<SseClient> {
    const client = await openSse(`${k.p.base}${STREAM}?${query}`, { authorization: `Bearer ${token}`, ...headers });
    t.teardown(() => client.close());
    return client;
  }

  async function setUp() {
    const wg = await k.workGroup();
    const stream = await k.stream();
    const trigger = await k.trigger(stream.id);
    const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
    return { wg, stream, trigger, ci };
  }

  const kinds = (events: SseEvent[]) => events.map((e) => e.event);
  const changes = (events: SseEvent[]) => events.filter((e) => e.event !== 'reset');

  t.test('every change of a problem is an event with the problem as data: opened, acknowledged, commented, resolved', async (t) => {
    const s = await setUp();
    const sse = await subscribe(t, `triggerIds=${s.trigger.id}`);
    t.equal(sse.status, 200);
    t.match(sse.headers.get('content-type'), /^text\/event-stream/);
    await k.post(s.stream.key, [{ '@timestamp': at(-10), check: 'cpu', host: s.ci.name, severity: 'critical' }]);
    const [opened] = await sse.until('opened', (e) => e.length >= 1);
    t.equal(opened!.event, 'opened');
    const item = JSON.parse(opened!.data);
    t.match(item, { trigger: { id: s.trigger.id }, configItem: { id: s.ci.id, name: s.ci.name }, priority: 'Problem1', dateEnd: null, acknowledged: null });
    t.match(opened!.id, /^[A-Za-z0-9_-]*\.\d+\.\d+$/, 'an id to resume from');
    t.equal((await k.api('POST', `${PROBLEMS}/${item.id}/acknowledge`, { json: { comment: 'mine' } })).status, 200);
    t.equal((await k.api('POST', `${PROBLEMS}/${item.id}/comments`, { json: { text: 'swapping' } })).status, 201);
    t.equal((await k.api('POST', `${PROBLEMS}/${item.id}/resolve`, { json: { comment: 'done' } })).status, 200);
    const events = await sse.until('four changes', (e) => e.length >= 4);
    t.same(kinds(events), ['opened', 'acknowledged', 'commented', 'resolved']);
    t.match(JSON.parse(events[1]!.data), { id: item.id, acknowledged: { comment: 'mine' } });
    t.match(JSON.parse(events[2]!.data), { id: item.id, commentsCount: 1 });
    t.match(JSON.parse(events[3]!.data), { id: item.id, dateEnd: k.iso() });
  });

  t.test('the events follow the filters: other triggers, CIs and priorities are left out', async (t) => {
    const s = await setUp();
    const other = await setUp();
    const sse = await subscribe(t, `configItemIds=${s.ci.id}&priorities=2`);
    await k.post(other.stream.key, [{ '@timestamp': at(-5), check: 'cpu', host: other.ci.name, severity: 'major' }]);
    await k.post(s.stream.key, [{ '@timestamp': at(-5), check: 'cpu', host: s.ci.name, severity: 'minor' }]);
    await k.post(s.stream.key, [{ '@timestamp': at(-4), check: 'cpu', host: s.ci.name, status: 'ok' }]);
    await k.post(s.stream.key, [{ '@timestamp': at(-3), check: 'cpu', host: s.ci.name, severity: 'major' }]);
    const events = await sse.until('the major one', (e) => e.length >= 1);
    t.equal(events.length, 1, 'only the Problem2 on the CI asked for');
    t.match(JSON.parse(events[0]!.data), { configItem: { id: s.ci.id }, priority: 'Problem2' });
  });

  t.test("the caller's rights at each event: a grant revoked stops that CI's events, a token revoked ends the stream", async (t) => {
    const s = await setUp();
    const team = await k.team('watchers');
    const grant = await k.grant(s.ci.id, team.wg.id, 'ConfigItem', ['base-system.rsm.basic-read']);
    const hidden = await setUp();
    const sse = await subscribe(t, '', {}, team.user.token);
    await k.post(hidden.stream.key, [{ '@timestamp': at(-9), check: 'cpu', host: hidden.ci.name, severity: 'major' }]);
    await k.post(s.stream.key, [{ '@timestamp': at(-9), check: 'cpu', host: s.ci.name, severity: 'major' }]);
    const seen = await sse.until('the granted CI', (e) => e.length >= 1);
    t.same(
      seen.map((e) => JSON.parse(e.data).configItem.id),
      [s.ci.id],
      'only the CI it may see',
    );
    const revoked = await k.api('DELETE', `/api/public/sm/v2/rsm/config-items/${s.ci.id}/work-groups/${grant.id}`);
    t.equal(revoked.status, 204, revoked.text);
    const after = await subscribe(t, '');
    await k.post(s.stream.key, [{ '@timestamp': at(-8), check: 'cpu', host: s.ci.name, status: 'ok' }]);
    await after.until('the admin sees the close', (e) => e.some((x) => x.event === 'resolved'));
    t.equal(sse.events.length, 1, 'no event after the grant was revoked');
    const tokens = await k.api('GET', `/api/admin/v1/users/${team.user.id}/tokens`);
    const off = await k.api('DELETE', `/api/admin/v1/users/${team.user.id}/tokens/${tokens.body[0].id}`);
    t.equal(off.status, 200, off.text);
    await k.post(hidden.stream.key, [{ '@timestamp': at(-7), check: 'cpu', host: hidden.ci.name, status: 'ok' }]);
    const last = await sse.until('the stream to say why it ends', (e) => e.some((x) => x.event === 'disconnect'));
    t.match(JSON.parse(last.at(-1)!.data), { reason: 'unauthorized' });
    await sse.ended;
  });

  t.test('Last-Event-ID resumes after that event with what was missed; an unknown position gets one reset', async (t) => {
    const s = await setUp();
    const first = await subscribe(t, `triggerIds=${s.trigger.id}`);
    await k.post(s.stream.key, [{ '@timestamp': at(-20), check: 'cpu', host: s.ci.name, severity: 'major' }]);
    const [opened] = await first.until('opened', (e) => e.length >= 1);
    first.close();
    await k.post(s.stream.key, [{ '@timestamp': at(-10), check: 'cpu', host: s.ci.name, status: 'ok' }]);
    await k.post(s.stream.key, [{ '@timestamp': at(-5), check: 'cpu', host: s.ci.name, severity: 'minor' }]);
    const resumed = await subscribe(t, `triggerIds=${s.trigger.id}`, { 'last-event-id': opened!.id! });
    const missed = await resumed.until('the two missed changes', (e) => e.length >= 2);
    t.same(kinds(missed), ['resolved', 'opened'], 'what happened while away, in order, nothing before');
    t.ok(
      missed.every((e) => e.id! > opened!.id! || e.id!.length > opened!.id!.length),
      'after the last id seen',
    );
    for (const lost of ['another-epoch.1.0', 'garbage']) {
      const reset = await subscribe(t, `triggerIds=${s.trigger.id}`, { 'last-event-id': lost });
      const events = await reset.until('reset', (e) => e.length >= 1);
      t.equal(events[0]!.event, 'reset', `${lost}: reload the list`);
      await k.post(s.stream.key, [{ '@timestamp': at(-1), check: 'cpu', host: s.ci.name, severity: 'minor', ticket: `T-${lost}` }]);
      const live = await reset.until('live changes after the reset', (e) => changes(e).length >= 1);
      t.equal(changes(live)[0]!.event, 'updated', 'then live: a new incident updates the open problem');
    }
  });

  t.test('a comment line keeps an idle stream open; bad parameters answer 400 before the stream starts', async (t) => {
    const sse = await subscribe(t, 'triggerIds=999999');
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (sse.comments >= 2) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    t.ok(sse.comments >= 2, 'keep-alive comments arrive');
    const bad = await k.api('GET', `${STREAM}?state=nope`);
    t.equal(bad.status, 400);
    t.equal(bad.body.code, 'problem.query_invalid');
    t.equal((await k.api('GET', STREAM, { token: null })).status, 401);
  });
}
