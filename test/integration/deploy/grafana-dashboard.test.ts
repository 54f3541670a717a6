/**
 * Issue #16: deploy/grafana/ops-platform.dashboard.json is a Grafana dashboard JSON model. It is
 * type-checked against @grafana/schema (the dashboard and each panel's options), its layout and
 * references are checked at run time, every PromQL expression parses (promtool) and every metric
 * it reads is one a platform process exposes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultDashboard } from '@grafana/schema';
import t from 'tap';
import ts from 'typescript';
import { stringify } from 'yaml';
import { exposedSeriesNames, metricNamesIn, promtool, readRepoFile, repoPath } from './deploy-kit.js';

/** Grafana's reference to the dashboard's data source variable (a literal `${…}`, not a template). */
const DATASOURCE_VARIABLE = '$' + '{datasource}';

type Json = Record<string, any>;
const file = 'deploy/grafana/ops-platform.dashboard.json';
const text = readRepoFile(file);
const dashboard = JSON.parse(text) as Json;
const allPanels: Json[] = (dashboard['panels'] as Json[]).flatMap((p) => [p, ...((p['panels'] as Json[] | undefined) ?? [])]);
const graphs = allPanels.filter((p) => p['type'] !== 'row');
const queries = graphs.flatMap((p) => (p['targets'] as Json[]).map((target) => ({ panel: p, target, expr: String(target['expr']) })));

/**
 * The option types of the panel plugins the dashboard uses, from @grafana/schema. A panel of a
 * type missing here fails the type check until its types are added.
 */
const panelTypes: Record<string, { module: string; options: string; custom: string }> = {
  timeseries: { module: '@grafana/schema/dist/esm/raw/composable/timeseries/panelcfg/x/TimeSeriesPanelCfg_types.gen', options: 'Options', custom: 'FieldConfig' },
};

/**
 * Type errors of the dashboard against the schema's types. Importing the JSON file into a .ts
 * file would not do: a JSON import widens every string to `string` (so enum-typed fields such as
 * a variable's `type` or a legend's `displayMode` cannot match) and, not being a fresh object
 * literal, escapes excess-property checks (a misspelled `gridpos` would pass). So the JSON text is
 * compiled as an object literal in a virtual module beside this test, typed with the schema's
 * types in which string enums are read as their values (`Json<T>`), under the repository's
 * tsconfig. Each entry of `sources` is one such module; the answer is its diagnostics.
 */
function typeErrors(sources: Record<string, Json>): Record<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    repoPath('tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json does not parse');
  const files = Object.fromEntries(
    Object.entries(sources).map(([name, model]) => {
      const imports = Object.entries(panelTypes).map(([type, p]) => `import type { ${p.options} as ${type}Options, ${p.custom} as ${type}Custom } from '${p.module}';`);
      const panels = (model['panels'] as Json[]).flatMap((p) => [p, ...((p['panels'] as Json[] | undefined) ?? [])]).filter((p) => p['type'] !== 'row');
      const checks = panels.map((p, i) =>
        panelTypes[p['type']]
          ? `export const panel${i}: { options: Json<${p['type']}Options>; custom: Json<${p['type']}Custom> } = ${JSON.stringify({ options: p['options'] ?? {}, custom: p['fieldConfig']?.['defaults']?.['custom'] ?? {} })};`
          : `export const panel${i}: never = '${String(p['type']).replace(/\W/g, '')} has no entry in panelTypes';`,
      );
      const source = [
        `import type { Dashboard } from '@grafana/schema';`,
        ...imports,
        `type Json<T> = T extends string ? \`\${T}\` : T extends number | boolean | null | undefined ? T : T extends readonly (infer U)[] ? Json<U>[] : T extends object ? { [K in keyof T]: Json<T[K]> } : T;`,
        `export const dashboard: Json<Dashboard> = ${JSON.stringify(model, null, 2)};`,
        ...checks,
      ].join('\n');
      return [repoPath(`test/integration/deploy/${name}.virtual.ts`), source];
    }),
  );
  const host = ts.createCompilerHost(config.options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  const getSource = host.getSourceFile.bind(host);
  host.readFile = (f) => files[f] ?? read(f);
  host.fileExists = (f) => f in files || exists(f);
  host.getSourceFile = (f, language, ...rest) => (f in files ? ts.createSourceFile(f, files[f]!, language, true) : getSource(f, language, ...rest));
  const program = ts.createProgram(Object.keys(files), { ...config.options, noEmit: true }, host);
  return Object.fromEntries(
    Object.entries(sources).map(([name]) => {
      const source = program.getSourceFile(repoPath(`test/integration/deploy/${name}.virtual.ts`))!;
      const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
      return [
        name,
        diagnostics.map(
          (d) => `${d.start === undefined ? '' : `line ${source.getLineAndCharacterOfPosition(d.start).line + 1}: `}${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
        ),
      ];
    }),
  );
}

t.test('the dashboard and its panels type-check against @grafana/schema, and broken copies do not', async (t) => {
  // One mistake per copy: TypeScript reports one assignability error per declaration.
  const broken = (mistake: (copy: Json, panel: Json) => void): Json => {
    const copy = structuredClone(dashboard);
    mistake(
      copy,
      (copy['panels'] as Json[]).find((p) => p['type'] === 'timeseries')!,
    );
    return copy;
  };
  const errors = typeErrors({
    dashboard,
    misspelledField: broken((_, panel) => {
      panel['gridpos'] = panel['gridPos'];
      delete panel['gridPos'];
    }),
    badLegendMode: broken((_, panel) => (panel['options']['legend']['displayMode'] = 'lists')),
    badVariableType: broken((copy) => (copy['templating']['list'][0]['type'] = 'datasources')),
  });
  t.same(errors['dashboard'], [], 'no type error');
  t.ok(
    errors['misspelledField']!.some((e) => /gridpos/.test(e)),
    'a misspelled panel field is caught',
    { errors: errors['misspelledField'] },
  );
  t.ok(
    errors['badLegendMode']!.some((e) => /"lists"/.test(e)),
    'a legend display mode that is not one is caught',
    { errors: errors['badLegendMode'] },
  );
  t.ok(
    errors['badVariableType']!.some((e) => /"datasources"/.test(e)),
    'a variable type that is not one is caught',
    { errors: errors['badVariableType'] },
  );
});

t.test('the dashboard model: version, identity, datasource variable', async (t) => {
  const schemaVersion = dashboard['schemaVersion'];
  // Grafana 11.0 writes 39; a newer Grafana migrates a lower version forward and takes a higher
  // one as is, so anything from 39 to the schema package's own default imports on 11 and 12.
  t.ok(
    Number.isInteger(schemaVersion) && schemaVersion >= 39 && schemaVersion <= defaultDashboard.schemaVersion!,
    `schemaVersion ${schemaVersion} in 39..${defaultDashboard.schemaVersion}`,
  );
  t.match(dashboard['uid'], /^[A-Za-z0-9_-]{1,40}$/, 'a uid Grafana takes (at most 40 characters)');
  t.ok(dashboard['title'], 'a title');
  t.equal(dashboard['id'], null, 'no database id (Grafana assigns one on import)');
  const variables = dashboard['templating']['list'] as Json[];
  const datasource = variables.find((v) => v['name'] === 'datasource');
  t.equal(datasource?.['type'], 'datasource', 'a datasource variable');
  t.equal(datasource?.['query'], 'prometheus', 'of Prometheus data sources');
  for (const v of variables.filter((x) => x['datasource']))
    t.same(v['datasource'], { type: 'prometheus', uid: DATASOURCE_VARIABLE }, `variable ${v['name']} queries the chosen data source`);
});

t.test('panels: unique ids and titles, on the grid without overlap, each query on the chosen data source', async (t) => {
  const ids = allPanels.map((p) => p['id']);
  t.ok(
    ids.every((id) => Number.isInteger(id)),
    'every panel has an integer id',
  );
  t.equal(new Set(ids).size, ids.length, 'ids are unique');
  const titles = graphs.map((p) => p['title']);
  t.equal(new Set(titles).size, titles.length, 'titles are unique');
  const boxes = allPanels.map((p) => ({ id: p['id'], ...(p['gridPos'] as { x: number; y: number; w: number; h: number }) }));
  for (const b of boxes) t.ok(b.w >= 1 && b.h >= 1 && b.x >= 0 && b.y >= 0 && b.x + b.w <= 24, `panel ${b.id} fits the 24-column grid (${JSON.stringify(b)})`);
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
      if (overlap) t.fail(`panels ${a.id} and ${b.id} overlap`);
    }
  }
  for (const p of graphs) {
    t.same(p['datasource'], { type: 'prometheus', uid: DATASOURCE_VARIABLE }, `panel ${p['id']} reads the chosen data source`);
    const refIds = (p['targets'] as Json[]).map((q) => q['refId']);
    t.ok(refIds.length > 0 && new Set(refIds).size === refIds.length, `panel ${p['id']}: queries with unique refIds`);
    for (const q of p['targets'] as Json[]) {
      t.same(q['datasource'], p['datasource'], `panel ${p['id']} ${q['refId']}: the panel's data source`);
      t.ok(typeof q['expr'] === 'string' && q['expr'].length > 0, `panel ${p['id']} ${q['refId']}: has an expression`);
    }
  }
});

t.test('every metric a query reads is exposed, and every platform metric is graphed', async (t) => {
  const exposed = await exposedSeriesNames();
  const used = new Set<string>();
  for (const { panel, target, expr } of queries) {
    const names = metricNamesIn(expr);
    t.ok(names.length > 0, `panel ${panel['id']} ${target['refId']} reads a metric`);
    for (const name of names) {
      used.add(name);
      t.ok(exposed.has(name), `panel ${panel['id']} ${target['refId']}: ${name} is exposed`);
    }
  }
  const family = (series: string): string => series.replace(/_(bucket|sum|count)$/, '');
  const usedFamilies = new Set([...used].map(family));
  const own = new Set([...exposed].filter((n) => n.startsWith('ops_')).map(family));
  t.same([...own].filter((m) => !usedFamilies.has(m) && !used.has(m)).sort(), [], 'no ops_ metric is left off the dashboard');
  for (const m of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_p99_seconds']) t.ok(used.has(m), `${m} is graphed`);
});

const { path: promtoolPath, skip } = promtool();
t.test('every query parses as PromQL (promtool check rules)', { skip }, async (t) => {
  // Grafana's own variables and the dashboard's take values that make the query plain PromQL.
  const values: Record<string, string> = { __rate_interval: '5m', __interval: '1m', __range: '1h' };
  for (const v of dashboard['templating']['list'] as Json[]) values[v['name']] = v['allValue'] ?? 'x';
  const rules = queries.map(({ panel, target, expr }) => {
    const plain = expr.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, a?: string, b?: string) => values[(a ?? b)!] ?? whole);
    t.notMatch(plain, /\$/, `panel ${panel['id']} ${target['refId']}: every variable is known`);
    return { record: `dashboard:panel_${panel['id']}:${target['refId']}`, expr: plain };
  });
  const dir = mkdtempSync(join(tmpdir(), 'ops-dashboard-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'queries.yml'), stringify({ groups: [{ name: 'dashboard', rules }] }));
  const checked = spawnSync(promtoolPath!, ['check', 'rules', join(dir, 'queries.yml')], { encoding: 'utf8' });
  t.equal(checked.status, 0, `promtool: ${checked.stdout}${checked.stderr}`);
  t.match(checked.stdout, new RegExp(`SUCCESS: ${rules.length} rules found`), 'every query was read');
});
