/** Admin API: CI types and CMDB systems. */
import Type from 'typebox';
import {
  CiTypeAdmin,
  ciTypeAdminExample,
  CiTypeCreate,
  ciTypeCreateExample,
  CiTypePatch,
  CmdbSystemCreate,
  CmdbSystemPatch,
  NamedEntity,
} from '../../../schemas/cmdb-reference.schema.js';
import { iconOfType } from '../../control-plane/cmdb/ci-type-icons.js';
import type { CmdbSlice } from '../../control-plane/cmdb/cmdb.slice.js';
import type { CiTypeRecord } from '../../control-plane/cmdb/cmdb.types.js';
import { createCiType, createCmdbSystem, deleteCiType, deleteCmdbSystem, patchCiType, renameCmdbSystem } from '../../control-plane/cmdb/reference.commands.js';
import { defineRoute, json, noContent, type Route } from '../../runtime/http/route.js';
import { ADMIN, ADMIN_PREFIX, type ApiDeps } from '../api-deps.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';

/** A CI type as the admin API shows it: which is the default, and its icon object (or null). */
const adminType = (cmdb: CmdbSlice, type: CiTypeRecord) => ({
  id: type.id,
  name: type.name,
  description: type.description,
  isDefault: type.isDefault,
  icon: iconOfType(cmdb, type.id),
});

export function referenceRoutes(deps: ApiDeps): Route[] {
  const cp = deps.controlPlane;
  const cmdb = cp.model.slices.cmdb;
  const base = { tags: ['admin'], security: 'bearer' as const, authenticate: deps.auth.requireRight(ADMIN) };
  const id = (params: Record<string, string>) => parseId(params['id']);
  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: `${ADMIN_PREFIX}/config-item-types`,
      name: 'admin.listCiTypes',
      summary: 'List CI types, with which is the default and their icons',
      schema: { responses: { 200: { description: 'CI types', schema: Type.Array(CiTypeAdmin), example: [ciTypeAdminExample] }, ...problems(401, 403) } },
      handler: () =>
        json(
          200,
          [...cmdb.types.values()].sort((a, b) => a.id - b.id).map((type) => adminType(cmdb, type)),
        ),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: `${ADMIN_PREFIX}/config-item-types`,
      name: 'admin.createCiType',
      summary: 'Create a CI type, optionally with an icon (iconId: a built-in or uploaded icon)',
      schema: {
        body: CiTypeCreate,
        bodyExample: ciTypeCreateExample,
        responses: { 201: { description: 'Created', schema: CiTypeAdmin, example: ciTypeAdminExample }, ...problems(400, 401, 403, 409, 415) },
      },
      handler: async (req) => json(201, adminType(cmdb, await cp.execute(createCiType(req.body)))),
    }),
    defineRoute({
      ...base,
      method: 'PATCH',
      path: `${ADMIN_PREFIX}/config-item-types/:id`,
      name: 'admin.patchCiType',
      summary: 'Rename or describe a CI type, make it the default, or set its icon (iconId; null: none)',
      schema: { body: CiTypePatch, responses: { 200: { description: 'Updated', schema: CiTypeAdmin, example: ciTypeAdminExample }, ...problems(400, 401, 403, 404, 409, 415) } },
      handler: async (req) => json(200, adminType(cmdb, await cp.execute(patchCiType(id(req.params), req.body)))),
    }),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${ADMIN_PREFIX}/config-item-types/:id`,
      name: 'admin.deleteCiType',
      summary: 'Delete a CI type no CI has (not the default)',
      schema: { responses: { 204: { description: 'Deleted' }, ...problems(400, 401, 403, 404, 409) } },
      handler: async (req) => {
        await cp.execute(deleteCiType(id(req.params)));
        return noContent();
      },
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${ADMIN_PREFIX}/cmdb-systems`,
      name: 'admin.listCmdbSystems',
      summary: 'List external CMDB systems',
      schema: { responses: { 200: { description: 'CMDB systems', schema: Type.Array(NamedEntity) }, ...problems(401, 403) } },
      handler: () =>
        json(
          200,
          [...cp.model.slices.cmdb.systems.values()].sort((a, b) => a.id - b.id),
        ),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: `${ADMIN_PREFIX}/cmdb-systems`,
      name: 'admin.createCmdbSystem',
      summary: 'Register a CMDB system',
      schema: { body: CmdbSystemCreate, responses: { 201: { description: 'Created', schema: NamedEntity }, ...problems(400, 401, 403, 409, 415) } },
      handler: async (req) => json(201, await cp.execute(createCmdbSystem(req.body))),
    }),
    defineRoute({
      ...base,
      method: 'PATCH',
      path: `${ADMIN_PREFIX}/cmdb-systems/:id`,
      name: 'admin.renameCmdbSystem',
      summary: 'Rename a CMDB system',
      schema: { body: CmdbSystemPatch, responses: { 200: { description: 'Renamed', schema: NamedEntity }, ...problems(400, 401, 403, 404, 409, 415) } },
      handler: async (req) => json(200, await cp.execute(renameCmdbSystem(id(req.params), req.body.name))),
    }),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${ADMIN_PREFIX}/cmdb-systems/:id`,
      name: 'admin.deleteCmdbSystem',
      summary: 'Delete a CMDB system no CI was created on',
      schema: { responses: { 204: { description: 'Deleted' }, ...problems(400, 401, 403, 404, 409) } },
      handler: async (req) => {
        await cp.execute(deleteCmdbSystem(id(req.params)));
        return noContent();
      },
    }),
  ];
}
