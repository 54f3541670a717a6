/**
 * Issue #16: the /metrics exposition passes `promtool check metrics` (Debian's `prometheus`
 * package): counters end in `_total`, nothing else does, units are in the names; the platform's
 * own metrics carry the `ops_` prefix.
 */
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { startTestPlatform } from '../../support/platform.js';
import { binaryPath } from '../../support/services.js';
import { ingestSettled } from '../../support/settled.js';
import { SlaKit } from '../sla/sla-kit.js';

const promtool = binaryPath('promtool');
if (!promtool && process.env['REQUIRE_SERVICES'] === '1') throw new Error('REQUIRE_SERVICES=1 but promtool is not installed (apt-get install -y prometheus)');

t.test(
  "promtool check metrics passes on /metrics, and the platform's own metrics are ops_",
  { skip: promtool ? false : 'promtool not installed (apt-get install -y prometheus)' },
  async (t) => {
    const p = await startTestPlatform();
    t.teardown(() => p.stop());
    await p.api('GET', '/api/admin/v1/config-item-types');
    const text = await (await fetch(`${p.base}/metrics`)).text();
    const checked = spawnSync(promtool!, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    t.equal(checked.status, 0, `promtool: ${checked.stdout}${checked.stderr}`);
    const own = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!).filter((name) => !/^(process|nodejs)_/.test(name));
    t.ok(own.length >= 9, own.join(', '));
    t.same(
      own.filter((name) => !name.startsWith('ops_')),
      [],
      'every metric of the platform is ops_',
    );
    t.match(text, /# TYPE ops_bus_redeliveries_total counter/, 'redeliveries count as a counter');
  },
);

t.test('per stream: records stored as events and records dead-lettered are counted', async (t) => {
  const p = await startTestPlatform();
  t.teardown(() => p.stop());
  const created = await p.api('POST', '/api/admin/v1/streams', { json: { name: 'counted', config: { framing: 'lines', parser: { type: 'text', pattern: '^ok (?<n>\\d+)$' } } } });
  const { id, key } = created.body as { id: number; key: string };
  const posted = await fetch(`${p.base}/api/public/cl/v1/stream-data?streamKey=${key}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: 'ok 1\nok 2\nnot a match\nok 3\n',
  });
  t.equal(posted.status, 200);
  await ingestSettled(p.platform);
  const text = await (await fetch(`${p.base}/metrics`)).text();
  t.match(text, new RegExp(`^ops_stream_events_total\\{stream="${id}"\\} 3$`, 'm'));
  t.match(text, new RegExp(`^ops_stream_dead_letters_total\\{stream="${id}"\\} 1$`, 'm'));
});

t.test("bus lag per consumer, the problem stage's lag and the SLA jobs' durations are exposed", async (t) => {
  const k = new SlaKit();
  await k.start();
  t.teardown(() => k.stop());
  const wg = await k.workGroup();
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const stream = await k.stream();
  await k.trigger(stream.id);
  const day = Date.parse('2026-03-01T00:00:00.000Z');
  await k.post(stream.key, [{ '@timestamp': new Date(day + 3_600_000).toISOString(), check: 'cpu', host: ci.name, severity: 'major' }]);
  const template = await k.template({ type: 'Single', configItems: [{ id: ci.id }] });
  const report = await k.finished(await k.ordered({ template: { id: template.id }, range: { start: new Date(day).toISOString(), end: new Date(day + 86_400_000).toISOString() } }));
  t.equal(report.status, 'Ok');
  const text = await (await fetch(`${k.p.base}/metrics`)).text();
  t.match(text, /^ops_bus_consumer_pending_messages\{stream="RECORDS",consumer="event-worker"\} 0$/m, "the event workers' durable, nothing left");
  t.match(text, /^ops_bus_consumer_pending_messages\{stream="HITS",consumer="problems-\d+"\} 0$/m, "a partition owner's durable");
  const lagCount = Number(/^ops_problem_stage_lag_seconds_count (\d+)$/m.exec(text)?.[1]);
  t.ok(lagCount >= 1, `hits messages placed: ${lagCount}`);
  t.match(text, /^ops_sla_job_duration_seconds_count\{outcome="ok"\} 1$/m, 'one job, finished Ok');
  for (const phase of ['problems', 'maths', 'store']) t.match(text, new RegExp(`^ops_sla_job_phase_duration_seconds_count\\{phase="${phase}"\\} 1$`, 'm'), phase);
});
