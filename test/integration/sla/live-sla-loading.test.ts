/**
 * Issue #18: the API does not wait for the live SLA's first read of the problems (some 20 s for
 * 10 000 000 of them): until it is done, includeSla is a 503 that says so; afterwards the figures
 * are served: those of the problems that first read found. On the real engine (chDB), its
 * queries held at a gate until the test opens it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createLiveSla, type LiveSla } from '../../../services/live-sla/live-sla.js';
import { createControlModel } from '../../../services/control-plane/slices.js';
import type { AnalyticsStore } from '../../../services/runtime/adapters/analytics/analytics.port.js';
import { createChdbStore } from '../../../services/runtime/adapters/analytics/chdb.adapter.js';
import { runMigrations } from '../../../services/runtime/adapters/analytics/migrations.js';
import { AppError } from '../../../schemas/errors.js';
import { createMetrics } from '../../../services/runtime/http/metrics.js';
import { silentLogger } from '../../../services/runtime/logger.js';
import { ciRecord } from '../../support/model-fixture.js';

const H = 3_600_000;
const D = 24 * H;

t.test('503 sla_live.loading until the first read of the problems is done, then the figures of the problems it read', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-live-sla-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const store = await createChdbStore({ dataDir }, { logger: silentLogger() });
  t.teardown(() => store.close());
  await runMigrations(store, { logger: silentLogger() });
  const now = Date.parse('2026-03-20T12:00:00.000Z');
  // CI 1 had one problem, priority 1 at full influence, from 3 h to 1 h before now: 2 h of it in
  // each window. CI 2 had none.
  const PROBLEM_MS = 2 * H;
  const at = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
  await store.insert('problems', [
    {
      id: '00000000-0000-4000-8000-000000000001',
      trigger_id: 1,
      trigger_name: 'db down',
      ci_id: 1,
      date_start: at(now - 3 * H),
      date_end: at(now - 3 * H + PROBLEM_MS),
      last_event_at: at(now - 3 * H),
      priority: 1,
      influence_value: 100,
      influence_max: 1,
      version: 1,
      is_deleted: 0,
    },
  ]);
  // Written long ago as far as the change log goes (its rows last a day): only the first read of
  // the problems themselves can find it, not the reads of the changes that follow.
  await store.command('TRUNCATE TABLE problem_changes');
  const model = createControlModel();
  for (const id of [1, 2]) model.slices.cmdb.apply(`ci:${id}`, 'ci', ciRecord(id, null));
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const held: AnalyticsStore = { ...store, query: async (sql, params) => (await gate, store.query(sql, params)) };
  const live = createLiveSla({ analytics: held, model, metrics: createMetrics(), logger: silentLogger(), now: () => now });
  live.start();
  t.teardown(() => live.stop());
  const refused = (() => {
    try {
      live.ofCi(1);
      return undefined;
    } catch (error) {
      return error;
    }
  })();
  t.ok(refused instanceof AppError, 'refused while loading');
  t.equal((refused as AppError).code, 'sla_live.loading');
  t.equal((refused as AppError).kind, 'unavailable', 'a 503');
  t.equal((refused as AppError).headers?.['Retry-After'] ?? (refused as AppError).headers?.['retry-after'], '5');
  // A template's live figures (issue #33) wait for the same first read.
  const template = { id: 1, name: 'Billing', type: 'Multi', templates: [] } as unknown as Parameters<LiveSla['ofTemplate']>[0];
  t.throws(() => live.ofTemplate(template), { code: 'sla_live.loading' }, 'a template’s figures too');
  open();
  await live.refresh();
  // Availability = ok / (ok + problem) × 100 over each window ending now, the problem's 2 h in each.
  const windows = [
    ['24h', D],
    ['7d', 7 * D],
    ['30d', 30 * D],
  ] as const;
  const expected = windows.map(([name, ms]) => [name, ((ms - PROBLEM_MS) / ms) * 100, PROBLEM_MS]);
  t.strictSame(
    live.ofCi(1).windows.map((w) => [w.window, w.availability, w.problemMs]),
    expected,
    'CI 1: its 2 h problem in every window',
  );
  t.ok(
    expected.every(([, availability]) => (availability as number) < 100),
    'none of them 100 %',
  );
  t.strictSame(
    live.ofCi(2).windows.map((w) => [w.window, w.availability, w.problemMs]),
    windows.map(([name]) => [name, 100, 0]),
    'CI 2, without problems: 100 %',
  );
});
