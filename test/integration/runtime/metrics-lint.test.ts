/**
 * Issue #16: the /metrics exposition passes `promtool check metrics` (Debian's `prometheus`
 * package): counters end in `_total`, nothing else does, units are in the names; the platform's
 * own metrics carry the `ops_` prefix.
 */
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { binaryPath } from '../../support/services.js';
import { startTestPlatform } from '../../support/platform.js';

const promtool = binaryPath('promtool');
if (!promtool && process.env['REQUIRE_SERVICES'] === '1') throw new Error('REQUIRE_SERVICES=1 but promtool is not installed (apt-get install -y prometheus)');

t.test('promtool check metrics passes on /metrics, and the platform\'s own metrics are ops_', { skip: promtool ? false : 'promtool not installed (apt-get install -y prometheus)' }, async (t) => {
  const p = await startTestPlatform();
  t.teardown(() => p.stop());
  await p.api('GET', '/api/admin/v1/config-item-types');
  const text = await (await fetch(`${p.base}/metrics`)).text();
  const checked = spawnSync(promtool!, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  t.equal(checked.status, 0, `promtool: ${checked.stdout}${checked.stderr}`);
  const own = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!).filter((name) => !/^(process|nodejs)_/.test(name));
  t.ok(own.length >= 9, own.join(', '));
  t.same(own.filter((name) => !name.startsWith('ops_')), [], 'every metric of the platform is ops_');
  t.match(text, /# TYPE ops_bus_redeliveries_total counter/, 'redeliveries count as a counter');
});

t.test('per stream: records stored as events and records dead-lettered are counted', async (t) => {
  const p = await startTestPlatform();
  t.teardown(() => p.stop());
  const created = await p.api('POST', '/api/admin/v1/streams', { json: { name: 'counted', config: { framing: 'lines', parser: { type: 'text', pattern: '^ok (?<n>\\d+)$' } } } });
  const { id, key } = created.body as { id: number; key: string };
  const posted = await fetch(`${p.base}/api/public/cl/v1/stream-data?streamKey=${key}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'ok 1\nok 2\nnot a match\nok 3\n' });
  t.equal(posted.status, 200);
  const text = await (await fetch(`${p.base}/metrics`)).text();
  t.match(text, new RegExp(`^ops_stream_events_total\\{stream="${id}"\\} 3$`, 'm'));
  t.match(text, new RegExp(`^ops_stream_dead_letters_total\\{stream="${id}"\\} 1$`, 'm'));
});
