/**
 * Issue #34: late data by event time. A key places every hit within its late window (one hour by
 * default, a trigger may say otherwise), however many arrived in it; a hit older than the window
 * is counted and dead-lettered with the reason.
 */
import t from 'tap';
import { PROBLEMS } from '../../../services/api/problems/problems.routes.js';
import { ProblemsKit } from './problems-kit.js';

const k = new ProblemsKit();
t.before(() => k.start());
t.teardown(() => k.stop());

const SEC = 1000;

t.test('300 firing records over 5 minutes, then a resolve dated 10 s after the first: the problem closes at the resolve’s date', async (t) => {
  const wg = await k.workGroup();
  const stream = await k.stream();
  const trigger = await k.trigger(stream.id);
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const first = k.clock - 10 * 60 * SEC;
  const firing = Array.from({ length: 300 }, (_, i) => ({ '@timestamp': new Date(first + i * SEC).toISOString(), check: 'cpu', host: ci.name, severity: 'major' }));
  await k.post(stream.key, firing);
  await k.post(stream.key, [{ '@timestamp': new Date(first + 10 * SEC + 500).toISOString(), check: 'cpu', host: ci.name, status: 'ok' }]);
  const page = await k.api('GET', `${PROBLEMS}?triggerIds=${trigger.id}&state=all&sort=dateStart`);
  t.same(
    page.body.items.map((p: any) => [p.dateStart, p.dateEnd]),
    [
      [new Date(first).toISOString(), new Date(first + 10 * SEC + 500).toISOString()],
      [new Date(first + 11 * SEC).toISOString(), null],
    ],
    'closed at the resolve; the records after it open the next problem',
  );
});

t.test('a hit older than its trigger’s late window is dead-lettered with the reason; one just inside is placed', async (t) => {
  const wg = await k.workGroup();
  const stream = await k.stream();
  const trigger = await k.trigger(stream.id, { lateWindowMinutes: 1 });
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const newest = k.clock - 60 * SEC;
  await k.post(stream.key, [{ '@timestamp': new Date(newest - 30 * 60 * SEC).toISOString(), check: 'cpu', host: ci.name, severity: 'major' }]);
  await k.post(stream.key, [{ '@timestamp': new Date(newest).toISOString(), check: 'cpu', host: ci.name, severity: 'major' }]);
  // The window now reaches one minute behind the newest record.
  await k.post(stream.key, [{ '@timestamp': new Date(newest - 59 * SEC).toISOString(), check: 'cpu', host: ci.name, status: 'ok' }]);
  await k.post(stream.key, [{ '@timestamp': new Date(newest - 5 * 60 * SEC).toISOString(), check: 'cpu', host: ci.name, status: 'ok' }]);
  const letters = await k.p.platform.engines.analytics.query<{ reason: string; payload: string }>(
    "SELECT reason, payload FROM dead_letters WHERE stream_id = 0 AND JSONExtractUInt(payload, 'triggerId') = {t:UInt64}",
    { t: trigger.id },
  );
  t.equal(letters.length, 1, 'the record five minutes behind is dead-lettered');
  t.match(letters[0]!.reason, new RegExp(`^too late for trigger ${trigger.id} on CI ${ci.id}`));
  t.match(JSON.parse(letters[0]!.payload), { triggerId: trigger.id, ciId: ci.id, resolve: true, ts: new Date(newest - 5 * 60 * SEC).toISOString() });
  const page = await k.api('GET', `${PROBLEMS}?triggerIds=${trigger.id}&state=all&sort=dateStart`);
  t.same(
    page.body.items.map((p: any) => p.dateEnd),
    [new Date(newest - 59 * SEC).toISOString(), null],
    'the resolve just inside the window split the problem; the one outside changed nothing',
  );
});
