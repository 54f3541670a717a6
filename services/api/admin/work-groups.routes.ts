/** Admin API: workgroups and their members, and roles. */
import Type from 'typebox';
import { Role, RolePut, WorkGroupCreate, WorkGroupDetail, WorkGroupPatch } from '../../../schemas/identity.schema.js';
import { createWorkGroup, deleteRole, deleteWorkGroup, findWorkGroup, putRole, renameWorkGroup, setMembership } from '../../control-plane/identity/identity.commands.js';
import { failFields } from '../../../schemas/errors.js';
import { defineRoute, json, noContent, type Route } from '../../runtime/http/route.js';
import { ADMIN, ADMIN_PREFIX, type ApiDeps } from '../api-deps.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';

const ROLE_NAME = /^[a-z][a-z0-9-]{0,62}$/;

export function workGroupRoutes(deps: ApiDeps): Route[] {
  const cp = deps.controlPlane;
  const base = { tags: ['admin'], security: 'bearer' as const, authenticate: deps.auth.requireRight(ADMIN) };
  const groupId = (params: Record<string, string>) => parseId(params['id'], 'id', 'workgroup id');
  const memberPath = `${ADMIN_PREFIX}/work-groups/:id/members/:userId`;
  const membership = (member: boolean): Route =>
    defineRoute({
      ...base,
      method: member ? 'PUT' : 'DELETE',
      path: memberPath,
      name: member ? 'admin.addMember' : 'admin.removeMember',
      summary: member ? 'Make a user a member of the workgroup' : 'Remove a user from the workgroup',
      schema: { responses: { 200: { description: 'The workgroup', schema: WorkGroupDetail }, ...problems(400, 401, 403, 404) } },
      handler: async (req) => json(200, await cp.execute(setMembership(groupId(req.params), parseId(req.params['userId'], 'userId', 'user id'), member))),
    });
  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: `${ADMIN_PREFIX}/work-groups`,
      name: 'admin.listWorkGroups',
      summary: 'List workgroups with their members',
      schema: { responses: { 200: { description: 'Workgroups', schema: Type.Array(WorkGroupDetail) }, ...problems(401, 403) } },
      handler: () =>
        json(
          200,
          [...cp.model.slices.identity.workGroups.values()].sort((a, b) => a.id - b.id),
        ),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: `${ADMIN_PREFIX}/work-groups`,
      name: 'admin.createWorkGroup',
      summary: 'Create a workgroup',
      schema: { body: WorkGroupCreate, responses: { 201: { description: 'Created', schema: WorkGroupDetail }, ...problems(400, 401, 403, 404, 409, 415) } },
      handler: async (req) => json(201, await cp.execute(createWorkGroup(req.body))),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${ADMIN_PREFIX}/work-groups/:id`,
      name: 'admin.getWorkGroup',
      summary: 'One workgroup',
      schema: { responses: { 200: { description: 'The workgroup', schema: WorkGroupDetail }, ...problems(400, 401, 403, 404) } },
      handler: (req) => json(200, findWorkGroup(cp.model, groupId(req.params))),
    }),
    defineRoute({
      ...base,
      method: 'PATCH',
      path: `${ADMIN_PREFIX}/work-groups/:id`,
      name: 'admin.renameWorkGroup',
      summary: 'Rename a workgroup',
      schema: { body: WorkGroupPatch, responses: { 200: { description: 'Renamed', schema: WorkGroupDetail }, ...problems(400, 401, 403, 404, 409, 415) } },
      handler: async (req) => json(200, await cp.execute(renameWorkGroup(groupId(req.params), req.body.name))),
    }),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${ADMIN_PREFIX}/work-groups/:id`,
      name: 'admin.deleteWorkGroup',
      summary: 'Delete a workgroup that owns no CI and holds no grant',
      schema: { responses: { 204: { description: 'Deleted' }, ...problems(400, 401, 403, 404, 409) } },
      handler: async (req) => {
        await cp.execute(deleteWorkGroup(groupId(req.params)));
        return noContent();
      },
    }),
    membership(true),
    membership(false),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${ADMIN_PREFIX}/roles`,
      name: 'admin.listRoles',
      summary: 'List roles and the platform rights they bundle',
      schema: { responses: { 200: { description: 'Roles', schema: Type.Array(Role) }, ...problems(401, 403) } },
      handler: () =>
        json(
          200,
          [...cp.model.slices.identity.roles.values()].sort((a, b) => a.name.localeCompare(b.name)),
        ),
    }),
    defineRoute({
      ...base,
      method: 'PUT',
      path: `${ADMIN_PREFIX}/roles/:name`,
      name: 'admin.putRole',
      summary: 'Create or replace a custom role',
      schema: { body: RolePut, responses: { 200: { description: 'Replaced', schema: Role }, 201: { description: 'Created', schema: Role }, ...problems(400, 401, 403, 415) } },
      handler: async (req) => {
        const name = req.params['name'] ?? '';
        if (!ROLE_NAME.test(name))
          throw failFields('role.name_invalid', [{ path: '/name', message: 'lower-case letters, digits and dashes, starting with a letter' }], { name: JSON.stringify(name) });
        const { created } = await cp.execute(putRole(name, req.body));
        return json(created ? 201 : 200, cp.model.slices.identity.roles.get(name));
      },
    }),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${ADMIN_PREFIX}/roles/:name`,
      name: 'admin.deleteRole',
      summary: 'Delete a custom role no user holds',
      schema: { responses: { 204: { description: 'Deleted' }, ...problems(400, 401, 403, 404, 409) } },
      handler: async (req) => {
        await cp.execute(deleteRole(req.params['name'] ?? ''));
        return noContent();
      },
    }),
  ];
}
