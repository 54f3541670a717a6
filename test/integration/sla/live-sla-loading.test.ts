/**
 * Issue #18: the API does not wait for the live SLA's first read of the problems (some 20 s for
 * 10 000 000 of them): until it is done, includeSla is a 503 that says so; afterwards the figures
 * are served. On the real engine (chDB), its queries held at a gate until the test opens it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createLiveSla, type LiveSla } from '../../../services/api/sla/live-sla.js';
import { createControlModel } from '../../../services/control-plane/slices.js';
import type { AnalyticsStore } from '../../../services/runtime/adapters/analytics/analytics.port.js';
import { createChdbStore } from '../../../services/runtime/adapters/analytics/chdb.adapter.js';
import { runMigrations } from '../../../services/runtime/adapters/analytics/migrations.js';
import { AppError } from '../../../services/runtime/errors.js';
import { createMetrics } from '../../../services/runtime/http/metrics.js';
import { silentLogger } from '../../../services/runtime/logger.js';

t.test('503 sla_live.loading until the first read of the problems is done, then the figures', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-live-sla-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const store = await createChdbStore({ dataDir }, { logger: silentLogger() });
  t.teardown(() => store.close());
  await runMigrations(store, { logger: silentLogger() });
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const held: AnalyticsStore = { ...store, query: async (sql, params) => (await gate, store.query(sql, params)) };
  const now = Date.parse('2026-03-20T12:00:00.000Z');
  const live = createLiveSla({ analytics: held, model: createControlModel(), metrics: createMetrics(), logger: silentLogger(), now: () => now });
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
  t.strictSame(
    live.ofCi(1).windows.map((w) => [w.window, w.availability]),
    [
      ['24h', 100],
      ['7d', 100],
      ['30d', 100],
    ],
  );
});
