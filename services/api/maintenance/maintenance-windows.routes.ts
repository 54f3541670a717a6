/**
 * Issue #33: GET …/rsm-maintenance/windows, the windows of the modes the caller may see within a
 * range, recurring modes expanded here, where each series stays compiled (maintenance-coverage.ts),
 * rather than in every browser. Visibility and `search` are those of the list (#1).
 */
import {
  MaintenanceWindows,
  type MaintenanceWindowsModel,
  MaintenanceWindowsQuery,
  maintenanceWindowsExample,
  WINDOWS_LIMITS,
} from '../../../schemas/maintenance-windows.schema.js';
import { type MaintenanceRecord, modeState, modeVisible } from '../../control-plane/maintenance/maintenance.types.js';
import { parseDateTime } from '../../control-plane/maintenance/maintenance-input.js';
import { searchMatcher } from '../../control-plane/maintenance/maintenance-query.js';
import { windowsIn } from '../../control-plane/maintenance/maintenance-windows.js';
import { failFields } from '../../../schemas/errors.js';
import { defineRoute, json, type Request, type Route } from '../../runtime/http/route.js';
import type { ApiDeps } from '../api-deps.js';
import { principal } from '../auth.js';
import { createVisibility } from '../cmdb/visibility.js';
import { problems } from '../../runtime/http/route-kit.js';
import { MAINTENANCE_PREFIX, MAINTENANCE_READ } from './maintenance.routes.js';

const DAY_MS = 86_400_000;

interface WindowsQuery {
  from: number;
  to: number;
  search: string | undefined;
  limit: number;
}

function readQuery(req: Request): WindowsQuery {
  const raw = (name: string) => req.query.get(name) ?? undefined;
  const bad = (name: string, why: string) => failFields('maintenance.query_invalid', [{ path: `/${name}`, message: why }], { name, value: JSON.stringify(raw(name) ?? null), why });
  const date = (name: 'dateFrom' | 'dateTo'): number => {
    const value = raw(name);
    if (value === undefined || value === '') throw bad(name, 'is required (an ISO 8601 date-time with an offset)');
    return parseDateTime(value, `/${name}`);
  };
  const from = date('dateFrom');
  const to = date('dateTo');
  if (to <= from) throw bad('dateTo', 'must be after dateFrom');
  if (to - from > WINDOWS_LIMITS.maxDays * DAY_MS) throw bad('dateTo', `must be at most ${WINDOWS_LIMITS.maxDays} days after dateFrom`);
  const limitText = raw('limit');
  const limit = limitText === undefined ? WINDOWS_LIMITS.defaultLimit : Number(limitText);
  if (limitText !== undefined && (!/^\d+$/.test(limitText) || limit < 1 || limit > WINDOWS_LIMITS.maxLimit))
    throw bad('limit', `must be an integer from 1 to ${WINDOWS_LIMITS.maxLimit}`);
  const search = raw('search')?.trim();
  return { from, to, search: search === '' ? undefined : search, limit };
}

export function maintenanceWindowsRoutes(deps: ApiDeps): Route[] {
  const model = deps.controlPlane.model;
  const visibleTo = createVisibility(model);
  const iso = (ms: number) => new Date(ms).toISOString();
  return [
    defineRoute({
      tags: ['maintenance'],
      security: 'bearer',
      authenticate: deps.auth.requireRight(MAINTENANCE_READ),
      method: 'GET',
      path: `${MAINTENANCE_PREFIX}/windows`,
      name: 'maintenance.windows',
      summary: 'The windows of the maintenance modes the caller may see within a range, recurring modes expanded (issue #33)',
      schema: {
        query: MaintenanceWindowsQuery,
        responses: { 200: { description: 'The windows and their modes', schema: MaintenanceWindows, example: maintenanceWindowsExample }, ...problems(400, 401, 403) },
      },
      handler: (req) => {
        const q = readQuery(req);
        const visible = visibleTo(principal(req).subject);
        const matches = q.search === undefined ? undefined : searchMatcher(q.search);
        const candidates: MaintenanceRecord[] = [];
        for (const mode of model.slices.maintenance.modes.values()) if ((!matches || matches(mode)) && modeVisible(mode, visible)) candidates.push(mode);
        const all = windowsIn(candidates, q.from, q.to);
        const windows = all.length > q.limit ? all.slice(0, q.limit) : all;
        const now = deps.now();
        const modes = new Map<number, MaintenanceWindowsModel['modes'][number]>();
        for (const { mode } of windows) {
          if (modes.has(mode.id)) continue;
          modes.set(mode.id, {
            id: mode.id,
            title: mode.title,
            state: modeState(mode, now),
            configItems: mode.entries.map((e) => ({ id: e.ciId, scope: e.scope, depth: e.depth })),
            recurrence: mode.recurrence ? { rule: mode.recurrence.rule, timeZone: mode.recurrence.timeZone } : null,
          });
        }
        return json(200, {
          dateFrom: iso(q.from),
          dateTo: iso(q.to),
          modes: [...modes.values()].sort((a, b) => a.id - b.id),
          windows: windows.map((w) => ({ modeId: w.mode.id, dateStart: iso(w.start), dateEnd: iso(w.end) })),
          truncated: windows.length < all.length,
        } satisfies MaintenanceWindowsModel);
      },
    }),
  ];
}
