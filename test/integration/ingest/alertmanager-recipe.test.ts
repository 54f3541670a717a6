/**
 * Issue #37, "the README recipes tried as written": the README's `alertmanager.yml` receiver,
 * read from README.md (not retyped), given to a REAL Alertmanager (Debian's
 * `prometheus-alertmanager`) with a route to it; alerts pushed to that Alertmanager reach the
 * stream through the platform's webhook receiver, firing and then resolved. Rows are counted on
 * disk (no FINAL).
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { missingAlertmanager, type RunningAlertmanager, startAlertmanager } from '../../support/alertmanager.js';
import { eventually } from '../../support/bus-recorder.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { storedEvents, storedRowCount } from '../../support/settled.js';
import { createStream } from '../../support/streams.js';

const skip = missingAlertmanager();
if (skip) t.plan(0, skip);

/** The README's Alertmanager block: the YAML fence that starts with `# Alertmanager (alertmanager.yml)`. */
function readmeRecipe(): string {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const block = /```yaml\n# Alertmanager \(alertmanager\.yml\)\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README.md has no ```yaml block starting "# Alertmanager (alertmanager.yml)"');
  return block;
}

let p: TestPlatform;
let am: RunningAlertmanager | undefined;
t.before(async () => {
  if (skip) return;
  p = await startTestPlatform({});
});
t.teardown(async () => {
  await am?.stop();
  await p?.stop();
});

t.test('the README’s receiver, as written, brings Alertmanager’s alerts into the stream, firing then resolved', { skip }, async (t) => {
  const stream = await createStream(p, 'alertmanager-recipe');
  const recipe = readmeRecipe().replaceAll('http://ops.example.com:8080', p.base).replaceAll('<the stream key>', stream.key);
  t.match(recipe, /receivers:/, 'the README block names its receiver');
  // The README gives the receiver; a route to it is the user's own (short waits for the test).
  const route = ['route:', '  receiver: ops-platform', '  group_wait: 100ms', '  group_interval: 500ms', '  repeat_interval: 1h', ''].join('\n');
  am = await startAlertmanager({ config: route + recipe });

  const startsAt = new Date(Date.now() - 60_000).toISOString();
  const alert = (endsAt: string) => ({
    labels: { alertname: 'DiskFull', instance: 'db-1:9100', severity: 'critical' },
    annotations: { summary: 'disk full on db-1' },
    startsAt,
    endsAt,
  });
  const push = async (endsAt: string) => {
    const answer = await fetch(`${am!.url}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([alert(endsAt)]) });
    t.equal(answer.status, 200, 'Alertmanager took the alert');
  };

  await push(new Date(Date.now() + 3_600_000).toISOString());
  await eventually('the firing alert stored', async () => (await storedRowCount(p.platform, stream.id)) >= 1, 30_000, 100);
  await push(new Date().toISOString());
  await eventually('the resolved alert stored', async () => (await storedRowCount(p.platform, stream.id)) >= 2, 30_000, 100);

  const rows = (await storedEvents(p.platform, stream.id)).map((r) => JSON.parse(r.payload) as Record<string, unknown>);
  t.equal(rows.length, 2, 'two records: firing, then resolved (counted without FINAL)');
  t.same(
    rows.map((r) => r['status']),
    ['firing', 'resolved'],
  );
  t.match(rows[0], { labels: { alertname: 'DiskFull', instance: 'db-1:9100' } });
});
