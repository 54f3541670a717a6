/**
 * CI rights over a whole list (issue 3): `node --import tsx bench/ci-rights.bench.ts`
 *
 * "One function answers what right user U holds on CI X, fast enough to run on every item of a
 * list of 100 000 CIs in well under 100 ms." On the API benchmark's 100 000-CI dataset (a
 * quarter readable only through a Tree grant on the root), for a non-admin user: `levelsOnAll`
 * (a memoised pass down the hierarchy, what the list endpoints use) against the baseline of calling `levelOn`
 * on every CI (an ancestor walk each). Medians over repeated runs in this process; both must
 * agree on every CI. Results: bench/results/ci-rights.md. Asserts nothing.
 */
import { loadavg } from 'node:os';
import { CmdbSlice } from '../services/control-plane/cmdb/cmdb.slice.js';
import { levelOn, levelsOnAll, type Subject } from '../services/control-plane/rights/ci-rights.js';
import { CI_COUNT, type DatasetContext, seedChanges } from './support/cmdb-dataset.js';
import { machineDescription, median, writeResultFile } from './support/report.js';

const RUNS = 15;
const loadAtStart = loadavg();
const ctx: DatasetContext = { opsWorkGroupId: 1, netWorkGroupId: 2, typeId: 1, author: { id: 1, name: 'admin' }, now: new Date(0).toISOString() };
const cmdb = new CmdbSlice();
for (const change of seedChanges(1, CI_COUNT, ctx)) {
  const kind = change.key.slice(0, change.key.indexOf(':'));
  if (kind === 'ci') cmdb.apply(change.key, kind, change.value);
}
const subject: Subject = { workGroupIds: new Set([ctx.opsWorkGroupId]), admin: false };

const time = (fn: () => void): number => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};
let all = levelsOnAll(cmdb, subject);
const perItem = new Map<number, number>();
for (const id of cmdb.cis.keys()) perItem.set(id, levelOn(cmdb, subject, id));
let agree = all.size === perItem.size && [...perItem].every(([id, level]) => all.get(id) === level);
const onePass: number[] = [];
const walks: number[] = [];
for (let i = 0; i < RUNS; i++) {
  onePass.push(time(() => (all = levelsOnAll(cmdb, subject))));
  walks.push(
    time(() => {
      for (const id of cmdb.cis.keys()) levelOn(cmdb, subject, id);
    }),
  );
}
agree &&= [...perItem].every(([id, level]) => all.get(id) === level);
const readable = [...all.values()].filter((l) => l > 0).length;
const text = [
  '# CI rights over 100 000 CIs',
  '',
  `${cmdb.cis.size} CIs, non-admin user in one workgroup, ${readable} CIs readable; medians over ${RUNS} runs (after one warm-up run each).`,
  '',
  '| method | median ms | min ms | max ms | ratio to baseline |',
  '|---|--:|--:|--:|--:|',
  `| baseline: levelOn per CI (ancestor walk each) | ${median(walks).toFixed(1)} | ${Math.min(...walks).toFixed(1)} | ${Math.max(...walks).toFixed(1)} | 1.00 |`,
  `| levelsOnAll (memoised pass down the hierarchy) | ${median(onePass).toFixed(1)} | ${Math.min(...onePass).toFixed(1)} | ${Math.max(...onePass).toFixed(1)} | ${(median(onePass) / median(walks)).toFixed(2)} |`,
  '',
  `Both agree on every CI: ${agree ? 'yes' : 'NO'}. Target: well under 100 ms for the whole list — ${median(onePass) < 100 ? 'holds' : 'MISSED'} (${median(onePass).toFixed(1)} ms).`,
  '',
  '## Machine',
  ...machineDescription(loadAtStart),
  '',
].join('\n');
writeResultFile(new URL('./results/ci-rights.md', import.meta.url), text);
process.stdout.write(text);
