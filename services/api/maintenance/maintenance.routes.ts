/**
 * Spec 4.2 #1–#6: maintenance modes. Reading needs the platform right
 * `base-system.rsm-maintenance.read`, creating and editing `base-system.rsm-maintenance.write`
 * (DESIGN §4); a mode is visible when at least one of its CIs is, and editing one needs read on
 * every CI it names (maintenance.commands.ts).
 */
import Type from 'typebox';
import {
  BatchValidateQuery,
  MaintenanceCreate,
  MaintenanceFilter,
  MaintenanceListQuery,
  MaintenanceMode,
  MaintenanceUpdate,
  maintenanceCreateExample,
  maintenanceEditedExample,
  maintenanceFilterExample,
  maintenanceModeExample,
  maintenancePatchExample,
  MaintenancePreview,
  maintenancePreviewBodyExample,
  maintenancePreviewExample,
  maintenanceReplaceExample,
  PreviewQuery,
} from '../../../schemas/maintenance.schema.js';
import type { Actor } from '../../control-plane/cmdb/ci-checks.js';
import { createMode, editMode, findMode } from '../../control-plane/maintenance/maintenance.commands.js';
import { type MaintenanceRecord, modeVisible } from '../../control-plane/maintenance/maintenance.types.js';
import { modeView } from '../../control-plane/maintenance/maintenance.view.js';
import { readFullBody, readPatchBody } from '../../control-plane/maintenance/maintenance-input.js';
import { previewMode } from '../../control-plane/maintenance/maintenance-preview.js';
import { filterModes, listModes, parseListQuery, readFilter } from '../../control-plane/maintenance/maintenance-query.js';
import { fail, failFields } from '../../../schemas/errors.js';
import { defineRoute, json, type Request, type Route } from '../../runtime/http/route.js';
import { BOOLEAN_RULE, queryBoolean } from '../../runtime/http/validate.js';
import type { ApiDeps } from '../api-deps.js';
import { principal, type PrincipalRequest } from '../auth.js';
import { createVisibility } from '../cmdb/visibility.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';

export const MAINTENANCE_PREFIX = '/api/public/sm/v1/rsm-maintenance';
export const MAINTENANCE_READ = 'base-system.rsm-maintenance.read';
export const MAINTENANCE_WRITE = 'base-system.rsm-maintenance.write';

const actorOf = (req: PrincipalRequest): Actor => {
  const p = principal(req);
  return { userId: p.user.id, userName: p.user.name, subject: p.subject };
};

function batchValidate(req: Request): { batchValidate: boolean } {
  const raw = req.query.get('batchValidate');
  const value = raw === null ? false : queryBoolean(raw);
  if (value === undefined)
    throw failFields('http.boolean_invalid', [{ path: '/batchValidate', message: BOOLEAN_RULE }], { name: 'batchValidate', value: JSON.stringify(raw), rule: BOOLEAN_RULE });
  return { batchValidate: value };
}

export function maintenanceRoutes(deps: ApiDeps): Route[] {
  const cp = deps.controlPlane;
  const model = cp.model;
  const visibleTo = createVisibility(model);
  const read = { tags: ['maintenance'], security: 'bearer' as const, authenticate: deps.auth.requireRight(MAINTENANCE_READ) };
  const write = { ...read, authenticate: deps.auth.requireRight(MAINTENANCE_WRITE) };
  const modeId = (req: Request) => parseId(req.params['id'], 'id', 'maintenance mode id');
  const Mode = { description: 'The maintenance mode', schema: MaintenanceMode, example: maintenanceModeExample };
  const Edited = { ...Mode, example: maintenanceEditedExample };
  const Modes = { description: 'One page of maintenance modes', schema: Type.Array(MaintenanceMode), example: [maintenanceModeExample] };

  const visibleFilter = (req: PrincipalRequest): ((mode: MaintenanceRecord) => boolean) => {
    const visible = visibleTo(principal(req).subject);
    return (mode) => modeVisible(mode, visible);
  };
  /** Applies `search`, sorting and paging of #1 and #3 to the modes the caller may see. */
  const page = (req: PrincipalRequest, modes: Iterable<MaintenanceRecord>) => {
    const query = parseListQuery(Object.fromEntries(req.query));
    const visible = visibleFilter(req);
    const now = deps.now();
    return json(
      200,
      listModes(only(modes, visible), query, now).map((mode) => modeView(mode, now)),
    );
  };
  const answer = (status: number, id: number) => json(status, modeView(model.slices.maintenance.modes.get(id)!, deps.now()));

  return [
    defineRoute({
      ...read,
      method: 'GET',
      path: MAINTENANCE_PREFIX,
      name: 'maintenance.listModes',
      summary: '#1 Maintenance modes the caller may see: search, sort and page',
      schema: { query: MaintenanceListQuery, responses: { 200: Modes, ...problems(400, 401, 403) } },
      handler: (req) => page(req, model.slices.maintenance.modes.values()),
    }),
    defineRoute({
      ...read,
      method: 'GET',
      path: `${MAINTENANCE_PREFIX}/:id`,
      name: 'maintenance.getMode',
      summary: '#2 One maintenance mode',
      schema: { responses: { 200: Mode, ...problems(400, 401, 403, 404) } },
      handler: (req) => {
        const mode = findMode(model, modeId(req));
        // Spec 7.2 lists 403 "no permission to view this mode" for #2, so an invisible mode is 403, not 404.
        if (!visibleFilter(req)(mode)) throw fail('maintenance.read_forbidden', { id: mode.id });
        return json(200, modeView(mode, deps.now()));
      },
    }),
    defineRoute({
      ...read,
      method: 'POST',
      path: `${MAINTENANCE_PREFIX}/filter`,
      name: 'maintenance.filterModes',
      summary: '#3 Maintenance modes by ids, start, end and CIs (OR within a field, AND across fields)',
      schema: { query: MaintenanceListQuery, body: MaintenanceFilter, bodyExample: maintenanceFilterExample, responses: { 200: Modes, ...problems(400, 401, 403, 415) } },
      handler: (req) => page(req, filterModes(model.slices.maintenance, readFilter(req.body))),
    }),
    defineRoute({
      ...write,
      method: 'POST',
      path: MAINTENANCE_PREFIX,
      name: 'maintenance.createMode',
      summary: '#4 Create a maintenance mode',
      schema: { query: BatchValidateQuery, body: MaintenanceCreate, bodyExample: maintenanceCreateExample, responses: { 201: Mode, ...problems(400, 401, 403, 415) } },
      handler: async (req) => {
        const options = batchValidate(req);
        const input = readFullBody(req.body);
        return answer(201, await cp.execute(createMode(input, options, actorOf(req), deps.now())));
      },
    }),
    defineRoute({
      ...write,
      method: 'POST',
      path: `${MAINTENANCE_PREFIX}/preview`,
      name: 'maintenance.previewMode',
      summary: 'What a mode body (#4) would do, without saving it: CIs covered, first occurrences, overlapping modes (issue #17)',
      schema: {
        query: PreviewQuery,
        body: MaintenanceCreate,
        bodyExample: maintenancePreviewBodyExample,
        responses: { 200: { description: 'The preview', schema: MaintenancePreview, example: maintenancePreviewExample }, ...problems(400, 401, 403, 415) },
      },
      handler: (req) => {
        const options = batchValidate(req);
        const input = readFullBody(req.body);
        const count = req.queryValues.occurrences ?? 10;
        const now = deps.now();
        const p = previewMode(model, input, options, actorOf(req), now, count);
        const iso = (ms: number) => new Date(ms).toISOString();
        return json(200, { ...p, occurrences: p.occurrences.map((o) => ({ dateStart: iso(o.start), dateEnd: iso(o.end), localStart: o.localStart, localEnd: o.localEnd })) });
      },
    }),
    defineRoute({
      ...write,
      method: 'PUT',
      path: `${MAINTENANCE_PREFIX}/:id`,
      name: 'maintenance.replaceMode',
      summary: '#5 Replace a maintenance mode; cancel=true cancels a scheduled mode or completes an active one',
      schema: { query: BatchValidateQuery, body: MaintenanceUpdate, bodyExample: maintenanceReplaceExample, responses: { 200: Edited, ...problems(400, 401, 403, 404, 415) } },
      handler: async (req) => {
        const id = modeId(req);
        const options = batchValidate(req);
        const input = readFullBody(req.body);
        return answer(200, await cp.execute(editMode(id, input, options, actorOf(req), deps.now())));
      },
    }),
    defineRoute({
      ...write,
      method: 'PATCH',
      path: `${MAINTENANCE_PREFIX}/:id`,
      name: 'maintenance.patchMode',
      summary: '#6 Change some fields of a maintenance mode (null keeps a field)',
      schema: { query: BatchValidateQuery, body: MaintenanceUpdate, bodyExample: maintenancePatchExample, responses: { 200: Edited, ...problems(400, 401, 403, 404, 415) } },
      handler: async (req) => {
        const id = modeId(req);
        const options = batchValidate(req);
        const input = readPatchBody(req.body);
        return answer(200, await cp.execute(editMode(id, input, options, actorOf(req), deps.now())));
      },
    }),
  ];
}

function* only<T>(items: Iterable<T>, keep: (item: T) => boolean): Generator<T> {
  for (const item of items) if (keep(item)) yield item;
}
