/**
 * A trigger tried on a stream's latest records before it is saved (POST
 * /api/admin/v1/triggers/dry-run, the console's trigger editor): the CIs it would open problems
 * on, counted as the event worker would apply it, nothing stored; and one test per error.
 */
import t, { type Test } from 'tap';
import type { Answer } from '../../support/http.js';
import { ProblemsKit } from '../problems/problems-kit.js';

const DRY_RUN = '/api/admin/v1/triggers/dry-run';
const k = new ProblemsKit();
let stream: { id: number; key: string };
const ci: Record<'a' | 'b' | 'd', { id: number; name: string }> = {} as never;

/** What the console's editor holds: a trigger not saved yet. */
const draft = (over: Record<string, unknown> = {}) => ({
  name: 'not saved',
  streamIds: [stream.id],
  match: [{ field: 'check', op: 'equals', value: 'cpu' }],
  ci: { by: 'nameField', field: 'host' },
  priority: { field: 'severity', map: { critical: 1, major: 2 }, default: 4 },
  resolve: { field: 'status', values: ['ok'] },
  influence: { value: 30, maxInfluence: false },
  ...over,
});

t.before(async () => {
  await k.start();
  stream = await k.stream();
  const wg = await k.workGroup();
  for (const key of ['a', 'b', 'd'] as const) ci[key] = await k.ci({ name: k.uniq(`dry-${key}`), ownerWorkGroup: { id: wg.id } });
  const at = (minutesAgo: number) => new Date(k.clock - minutesAgo * 60_000).toISOString();
  await k.post(stream.key, [
    { '@timestamp': at(60), check: 'cpu', host: ci.a.name, severity: 'major', status: 'fail' },
    { '@timestamp': at(50), check: 'cpu', host: ci.b.name, severity: 'minor', status: 'fail' },
    { '@timestamp': at(40), check: 'cpu', host: ci.b.name, status: 'ok' },
    { '@timestamp': at(30), check: 'cpu', host: 'no-such-host', status: 'fail' },
    { '@timestamp': at(20), check: 'cpu', host: ci.d.name, status: 'ok' },
    { '@timestamp': at(10), check: 'cpu', host: ci.a.name, severity: 'critical', status: 'fail' },
    { '@timestamp': at(5), check: 'mem', host: ci.a.name, status: 'fail' },
  ]);
});
t.teardown(() => k.stop());

function isProblem(t: Test, answer: Answer, status: number, code: string, path?: string): void {
  t.equal(answer.status, status, `status ${status}: ${answer.text}`);
  t.equal(answer.body?.code, code);
  if (path)
    t.ok(
      (answer.body?.errors ?? []).some((e: { path: string }) => e.path === path),
      `errors name ${path}`,
    );
}

t.test('the CIs a trigger would open problems on, from the stream’s latest records, oldest first', async (t) => {
  const answer = await k.api('POST', DRY_RUN, { json: { trigger: draft() } });
  t.equal(answer.status, 200, answer.text);
  t.match(answer.body, { streamId: stream.id, examined: 7, matched: 6, withoutCi: 1 });
  t.same(
    answer.body.cis.map((c: Record<string, unknown>) => [c['ciName'], c['hits'], c['opened'], c['resolved'], c['openAtEnd'], c['priority']]),
    [
      [ci.a.name, 2, 1, 0, true, 1],
      [ci.b.name, 2, 1, 1, false, 4],
      [ci.d.name, 1, 0, 0, false, null],
    ],
    'a: one problem still open (its highest priority critical); b: opened then resolved; d: a resolve alone opens nothing',
  );
  t.equal(answer.body.from, new Date(k.clock - 60 * 60_000).toISOString(), 'from the oldest record tried');
});

t.test('`records` tries only the latest ones', async (t) => {
  const answer = await k.api('POST', DRY_RUN, { json: { trigger: draft(), records: 2 } });
  t.equal(answer.status, 200, answer.text);
  t.match(answer.body, { examined: 2, matched: 1, withoutCi: 0 });
  t.same(
    answer.body.cis.map((c: { ciId: number }) => c.ciId),
    [ci.a.id],
  );
});

t.test('nothing is stored: no trigger, no problem', async (t) => {
  const triggers = await k.api('GET', `/api/admin/v1/triggers?streamId=${stream.id}`);
  t.same(triggers.body, [], 'no trigger saved');
  t.same(await k.problems(ci.a.id), [], 'no problem opened');
});

t.test('a trigger that could not be saved is refused at its field (400 trigger.references_invalid)', async (t) => {
  const answer = await k.api('POST', DRY_RUN, { json: { trigger: draft({ match: [{ field: 'check', op: 'regex', pattern: '(a)\\1' }] }) } });
  isProblem(t, answer, 400, 'trigger.references_invalid', '/trigger/match/0/pattern');
});

t.test('a stream that does not exist is refused (400 at /streamId)', async (t) => {
  isProblem(t, await k.api('POST', DRY_RUN, { json: { trigger: draft(), streamId: 999_999 } }), 400, 'trigger.references_invalid', '/streamId');
});

t.test('more than 1000 records is refused (400 at /records)', async (t) => {
  const answer = await k.api('POST', DRY_RUN, { json: { trigger: draft(), records: 1001 } });
  t.equal(answer.status, 400);
  t.ok(
    (answer.body?.errors ?? []).some((e: { path: string }) => e.path === '/records'),
    answer.text,
  );
});

t.test('a user without the admin right is refused (403)', async (t) => {
  const user = await k.user();
  const answer = await k.api('POST', DRY_RUN, { json: { trigger: draft() }, token: user.token });
  t.equal(answer.status, 403, answer.text);
});
