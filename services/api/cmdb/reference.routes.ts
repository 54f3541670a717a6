/** Spec 4.1 #1–#3: CI types, CMDB systems and workgroups, for any authenticated user. */
import Type from 'typebox';
import { CiType, ciTypesExample, cmdbSystemsExample, NamedEntity, workGroupsExample } from '../../../schemas/cmdb-reference.schema.js';
import { json, type Route } from '../../runtime/http/route.js';
import type { ApiDeps } from '../api-deps.js';
import { problems } from '../route-kit.js';

export const CMDB_PREFIX = '/api/public/sm/v2/rsm';

export function publicReferenceRoutes(deps: ApiDeps): Route[] {
  const model = deps.controlPlane.model;
  const base = { tags: ['cmdb'], security: 'bearer' as const, authenticate: deps.auth.authenticate };
  const byId = <T extends { id: number }>(items: Iterable<T>): T[] => [...items].sort((a, b) => a.id - b.id);
  return [
    {
      ...base,
      method: 'GET',
      path: `${CMDB_PREFIX}/config-item-types`,
      name: 'cmdb.listConfigItemTypes',
      summary: '#1 CI types',
      schema: { responses: { 200: { description: 'CI types', schema: Type.Array(CiType), example: ciTypesExample }, ...problems(401) } },
      handler: () =>
        json(
          200,
          byId(model.slices.cmdb.types.values()).map(({ id, name, description }) => ({ id, name, description })),
        ),
    },
    {
      ...base,
      method: 'GET',
      path: `${CMDB_PREFIX}/cmdb-systems`,
      name: 'cmdb.listCmdbSystems',
      summary: '#2 CMDB systems',
      schema: { responses: { 200: { description: 'CMDB systems', schema: Type.Array(NamedEntity), example: cmdbSystemsExample }, ...problems(401) } },
      handler: () =>
        json(
          200,
          byId(model.slices.cmdb.systems.values()).map(({ id, name }) => ({ id, name })),
        ),
    },
    {
      ...base,
      method: 'GET',
      path: `${CMDB_PREFIX}/work-groups`,
      name: 'cmdb.listWorkGroups',
      summary: '#3 Workgroups',
      schema: { responses: { 200: { description: 'Workgroups', schema: Type.Array(NamedEntity), example: workGroupsExample }, ...problems(401) } },
      handler: () =>
        json(
          200,
          byId(model.slices.identity.workGroups.values()).map(({ id, name }) => ({ id, name })),
        ),
    },
  ];
}
