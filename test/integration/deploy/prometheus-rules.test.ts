/**
 * Issue #16: deploy/prometheus/ops-platform.rules.yml passes `promtool check rules`, its unit
 * tests (ops-platform.rules.test.yml) pass `promtool test rules` and fail when a threshold moves,
 * every alert is labelled and explained and has a case that fires it and one that must not, and
 * every metric the rules read is one a platform process exposes.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { exposedSeriesNames, metricNamesIn, promtool, readRepoFile, repoPath } from './deploy-kit.js';

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface AlertTest {
  alertname: string;
  eval_time: string;
  exp_alerts?: unknown[];
}

const rulesFile = 'deploy/prometheus/ops-platform.rules.yml';
const testsFile = 'deploy/prometheus/ops-platform.rules.test.yml';
const rules = (parse(readRepoFile(rulesFile)) as { groups: Array<{ name: string; rules: Rule[] }> }).groups.flatMap((g) => g.rules);
const alerts = rules.filter((r) => r.alert !== undefined);
const tests = parse(readRepoFile(testsFile)) as { rule_files: string[]; tests: Array<{ name: string; alert_rule_test?: AlertTest[] }> };

t.test('every rule is an alert with a for, a severity, a summary and a description', async (t) => {
  t.ok(alerts.length >= 10, `${alerts.length} alerts`);
  t.same(
    rules.filter((r) => r.alert === undefined).map((r) => r.record),
    [],
    'no recording rule (nothing here would read one)',
  );
  const names = alerts.map((a) => a.alert);
  t.equal(new Set(names).size, names.length, 'alert names are unique');
  for (const a of alerts) {
    t.match(a.for ?? '', /^\d+[smh]$/, `${a.alert}: for ${a.for}`);
    t.ok(['critical', 'warning', 'info'].includes(a.labels?.['severity'] ?? ''), `${a.alert}: severity ${a.labels?.['severity']}`);
    t.ok(a.annotations?.['summary'], `${a.alert}: a summary`);
    t.ok(a.annotations?.['description'], `${a.alert}: a description`);
  }
});

t.test('every metric the rules read is exposed by a platform process', async (t) => {
  // `up` is Prometheus's own series for each target.
  const known = new Set([...(await exposedSeriesNames()), 'up']);
  for (const a of alerts) {
    const names = metricNamesIn(a.expr);
    t.ok(names.length > 0, `${a.alert} reads a metric`);
    for (const name of names) t.ok(known.has(name), `${a.alert}: ${name} is exposed`);
  }
});

t.test('every alert has a unit test that fires it and one where it must stay quiet', async (t) => {
  t.same(tests.rule_files, ['ops-platform.rules.yml'], 'the unit tests load the rules file');
  const cases = tests.tests.flatMap((c) => c.alert_rule_test ?? []);
  for (const a of alerts) {
    const mine = cases.filter((c) => c.alertname === a.alert);
    t.ok(
      mine.some((c) => (c.exp_alerts ?? []).length > 0),
      `${a.alert} fires in a test`,
    );
    t.ok(
      mine.some((c) => (c.exp_alerts ?? []).length === 0),
      `${a.alert} stays quiet in a test`,
    );
  }
  t.same(
    cases.filter((c) => !alerts.some((a) => a.alert === c.alertname)).map((c) => c.alertname),
    [],
    'the tests name only alerts that exist',
  );
});

const { path: promtoolPath, skip } = promtool();

t.test('promtool check rules accepts the rules', { skip }, async (t) => {
  const checked = spawnSync(promtoolPath!, ['check', 'rules', repoPath(rulesFile)], { encoding: 'utf8' });
  t.equal(checked.status, 0, `promtool: ${checked.stdout}${checked.stderr}`);
  t.match(checked.stdout, new RegExp(`SUCCESS: ${rules.length} rules found`));
});

t.test('promtool test rules passes the unit tests, and fails them when a threshold moves', { skip }, async (t) => {
  const passed = spawnSync(promtoolPath!, ['test', 'rules', repoPath(testsFile)], { encoding: 'utf8' });
  t.equal(passed.status, 0, `promtool: ${passed.stdout}${passed.stderr}`);
  t.match(passed.stdout, /SUCCESS/);

  const dir = mkdtempSync(join(tmpdir(), 'ops-rules-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(repoPath(testsFile), join(dir, 'ops-platform.rules.test.yml'));
  const original = readFileSync(repoPath(rulesFile), 'utf8');
  const moved = original.replace('> 0.05\n', '> 0.5\n');
  t.not(moved, original, 'the 5xx threshold was found and moved');
  writeFileSync(join(dir, 'ops-platform.rules.yml'), moved);
  const failed = spawnSync(promtoolPath!, ['test', 'rules', join(dir, 'ops-platform.rules.test.yml')], { encoding: 'utf8' });
  t.not(failed.status, 0, 'the unit tests notice');
  t.match(failed.stdout + failed.stderr, /OpsHttp5xxRatioHigh/);
});
