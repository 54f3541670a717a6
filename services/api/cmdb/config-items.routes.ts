/** Spec 4.1 #4–#16: configuration items, their access grants and their links. */
import Type from 'typebox';
import {
  CiCreate,
  CiFilter,
  FilterCiQuery,
  CiUpdate,
  ConfigItem,
  childCiExample,
  childLinkExample,
  ciCreatedExample,
  ciCreateExample,
  ciFilterExample,
  ciUpdateExample,
  configItemExample,
  configItemWithStateExample,
  DeleteCiQuery,
  FilteredCi,
  filteredCisExample,
  formerChildCiExample,
  GetCiQuery,
  GrantCreate,
  GrantUpdate,
  grantCreateExample,
  grantUpdateExample,
  influentialLinkExample,
  influentialsExample,
  LinkBody,
  ShortCi,
  shortCisExample,
} from '../../../schemas/cmdb.schema.js';
import { createCi, deleteCi, updateCi } from '../../control-plane/cmdb/ci.commands.js';
import { ciView, filteredView, shortView } from '../../control-plane/cmdb/ci.view.js';
import { type Actor, ciIdOrThrow, findCi } from '../../control-plane/cmdb/ci-checks.js';
import { filterCis } from '../../control-plane/cmdb/ci-filter.js';
import { addGrant, removeGrant, updateGrant } from '../../control-plane/cmdb/grant.commands.js';
import { addChild, addInfluential, removeChild, removeInfluential } from '../../control-plane/cmdb/link.commands.js';
import { canRead, levelOnCi } from '../../control-plane/rights/ci-rights.js';
import type { PlatformModel } from '../../control-plane/model.js';
import { fail } from '../../../schemas/errors.js';
import { defineRoute, json, noContent, type Request, type Route } from '../../runtime/http/route.js';
import { type ApiDeps, isoNow } from '../api-deps.js';
import { principal, type PrincipalRequest } from '../auth.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';
import { CMDB_PREFIX } from './reference.routes.js';
import { liveSlaView } from '../../live-sla/live-sla.js';
import { createCiViewBytes } from './ci-view-bytes.js';
import { createVisibility } from './visibility.js';

const CIS = `${CMDB_PREFIX}/config-items`;

const JSON_TYPE = { 'content-type': 'application/json' };

const actorOf = (req: PrincipalRequest): Actor => {
  const p = principal(req);
  return { userId: p.user.id, userName: p.user.name, subject: p.subject };
};

const influentialsOf = (model: PlatformModel, dependentId: number) =>
  [...model.slices.cmdb.cis.get(dependentId)!.influentialIds].sort((a, b) => a - b).map((id) => shortView(model.slices.cmdb.cis.get(id)!));

export function configItemRoutes(deps: ApiDeps): Route[] {
  const cp = deps.controlPlane;
  const model = cp.model;
  const visibleTo = createVisibility(model);
  const base = { tags: ['cmdb'], security: 'bearer' as const, authenticate: deps.auth.authenticate };
  const full = (id: number) => ciView(model, model.slices.cmdb.cis.get(id)!, {});
  const plainBytes = createCiViewBytes(model);
  const ciId = (req: Request, name = 'id') => parseId(req.params[name], name, 'CI id');
  const Full = { description: 'The full CI model', schema: ConfigItem, example: configItemExample };
  const Influentials = { description: 'The CIs that now influence the dependent CI', schema: Type.Array(ShortCi) };

  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: CIS,
      name: 'cmdb.listConfigItems',
      summary: '#4 Every CI the caller may see (id, name)',
      schema: { responses: { 200: { description: 'Short CIs', schema: Type.Array(ShortCi), example: shortCisExample }, ...problems(401) } },
      handler: (req) => {
        const visible = visibleTo(principal(req).subject);
        const out = [];
        for (const ci of model.slices.cmdb.cis.values()) if (visible(ci.id)) out.push(shortView(ci));
        return json(
          200,
          out.sort((a, b) => a.id - b.id),
        );
      },
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: `${CIS}/filter`,
      name: 'cmdb.filterConfigItems',
      summary: '#5 CIs matching ids, names and labels',
      schema: {
        query: FilterCiQuery,
        body: CiFilter,
        bodyExample: ciFilterExample,
        responses: { 200: { description: 'Filtered CIs', schema: Type.Array(FilteredCi), example: filteredCisExample }, ...problems(400, 401, 415, 503) },
      },
      handler: (req) => {
        const visible = visibleTo(principal(req).subject);
        const withSla = req.queryValues.includeSla === true;
        return json(
          200,
          filterCis(model.slices.cmdb, req.body)
            .filter((ci) => visible(ci.id))
            .map((ci) => (withSla ? { ...filteredView(ci), sla: liveSlaView(deps.liveSla.ofCi(ci.id)) } : filteredView(ci))),
        );
      },
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: CIS,
      name: 'cmdb.createConfigItem',
      summary: '#6 Create a CI',
      schema: { body: CiCreate, bodyExample: ciCreateExample, responses: { 201: { ...Full, example: ciCreatedExample }, ...problems(400, 401, 403, 404, 415) } },
      handler: async (req) => json(201, full(await cp.execute(createCi(req.body, actorOf(req), isoNow(deps))))),
    }),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${CIS}/:id`,
      name: 'cmdb.deleteConfigItem',
      summary: '#7 Delete a CI; its children move to its parent',
      schema: { query: DeleteCiQuery, responses: { 204: { description: 'Deleted' }, ...problems(400, 401, 403, 404) } },
      handler: async (req) => {
        await cp.execute(deleteCi(ciId(req), req.queryValues.applyGrants === true, actorOf(req), isoNow(deps)));
        return noContent();
      },
    }),
    defineRoute({
      ...base,
      method: 'PUT',
      path: `${CIS}/:id`,
      name: 'cmdb.updateConfigItem',
      summary: '#8 Update a CI',
      schema: { body: CiUpdate, bodyExample: ciUpdateExample, responses: { 200: Full, ...problems(400, 401, 403, 404, 415) } },
      handler: async (req) => json(200, full(await cp.execute(updateCi(ciId(req), req.body, actorOf(req), isoNow(deps))))),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: `${CIS}/:id/work-groups`,
      name: 'cmdb.addGrant',
      summary: '#9 Share a CI with a workgroup',
      schema: { body: GrantCreate, bodyExample: grantCreateExample, responses: { 200: Full, ...problems(400, 401, 403, 404, 415) } },
      handler: async (req) => json(200, full(await cp.execute(addGrant(ciId(req), req.body, actorOf(req), isoNow(deps))))),
    }),
    defineRoute({
      ...base,
      method: 'PUT',
      path: `${CIS}/:id/work-groups`,
      name: 'cmdb.updateGrant',
      summary: '#10 Change an access grant of a CI',
      schema: { body: GrantUpdate, bodyExample: grantUpdateExample, responses: { 200: Full, ...problems(400, 401, 403, 404, 415) } },
      handler: async (req) => json(200, full(await cp.execute(updateGrant(ciId(req), req.body, actorOf(req), isoNow(deps))))),
    }),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${CIS}/:id/work-groups/:sharedId`,
      name: 'cmdb.removeGrant',
      summary: '#11 Remove an access grant of a CI',
      schema: { responses: { 204: { description: 'Removed' }, ...problems(400, 401, 403, 404) } },
      handler: async (req) => {
        await cp.execute(removeGrant(ciId(req), parseId(req.params['sharedId'], 'sharedId', 'access-model id'), actorOf(req), isoNow(deps)));
        return noContent();
      },
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${CIS}/:id`,
      name: 'cmdb.getConfigItem',
      summary: '#12 One CI, optionally with its state and health (and its type’s icon, its live SLA)',
      schema: { query: GetCiQuery, responses: { 200: { ...Full, example: configItemWithStateExample }, ...problems(400, 401, 403, 404, 503) } },
      handler: (req) => {
        const id = ciId(req);
        const ci = findCi(model, id);
        if (!canRead(levelOnCi(model.slices.cmdb, principal(req).subject, ci))) throw fail('ci.read_forbidden', { id });
        const { includeState, includeHealth, includeIcon, includeSla } = req.queryValues;
        if (includeState !== true && includeHealth !== true && includeIcon !== true && includeSla !== true) return json(200, plainBytes(ci), JSON_TYPE);
        const view = ciView(model, ci, { includeState: includeState === true, includeHealth: includeHealth === true, includeIcon: includeIcon === true, now: deps.now() });
        if (includeSla === true) view.sla = liveSlaView(deps.liveSla.ofCi(id));
        return json(200, view);
      },
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: `${CIS}/:parentId/children`,
      name: 'cmdb.addChild',
      summary: '#13 Make a CI a child of another (moves it when it has a parent)',
      schema: {
        body: LinkBody,
        bodyExample: childLinkExample,
        responses: { 200: { description: 'The child CI', schema: ConfigItem, example: childCiExample }, ...problems(400, 401, 403, 404, 415) },
      },
      handler: async (req) => {
        const parentId = ciId(req, 'parentId');
        const childId = ciIdOrThrow(req.body.id, 'child CI id');
        return json(200, full(await cp.execute(addChild(parentId, childId, actorOf(req), isoNow(deps)))));
      },
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: `${CIS}/:dependentId/influentials`,
      name: 'cmdb.addInfluential',
      summary: '#14 Link a CI that influences the dependent CI',
      schema: { body: LinkBody, bodyExample: influentialLinkExample, responses: { 200: { ...Influentials, example: influentialsExample }, ...problems(400, 401, 403, 404, 415) } },
      handler: async (req) => {
        const dependentId = ciId(req, 'dependentId');
        const influentialId = ciIdOrThrow(req.body.id, 'influencing CI id');
        await cp.execute(addInfluential(dependentId, influentialId, actorOf(req), isoNow(deps)));
        return json(200, influentialsOf(model, dependentId));
      },
    }),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${CIS}/:parentId/children/:childId`,
      name: 'cmdb.removeChild',
      summary: '#15 Unlink a child; it becomes a root',
      schema: { responses: { 200: { description: 'The former child CI', schema: ConfigItem, example: formerChildCiExample }, ...problems(400, 401, 403, 404) } },
      handler: async (req) => json(200, full(await cp.execute(removeChild(ciId(req, 'parentId'), ciId(req, 'childId'), actorOf(req), isoNow(deps))))),
    }),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${CIS}/:dependentId/influentials/:influentialId`,
      name: 'cmdb.removeInfluential',
      summary: '#16 Unlink an influencing CI',
      schema: { responses: { 200: { ...Influentials, example: [] }, ...problems(400, 401, 403, 404) } },
      handler: async (req) => {
        const dependentId = ciId(req, 'dependentId');
        await cp.execute(removeInfluential(dependentId, ciId(req, 'influentialId'), actorOf(req), isoNow(deps)));
        return json(200, influentialsOf(model, dependentId));
      },
    }),
  ];
}
