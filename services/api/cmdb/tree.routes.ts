/**
 * GET …/config-items/{parentId}/children (issue #32): the CI hierarchy a page at a time, for the
 * console's tree (services/control-plane/cmdb/ci-tree.ts states the rule). A listing is computed
 * once per caller's workgroups, query and model revision and kept, so paging through 5 000
 * children or 10^5 top-level CIs sorts them once.
 */
import { CiChildrenQuery, TreePage, type TreeCiModel, treePageExample } from '../../../schemas/cmdb-tree.schema.js';
import { ciState } from '../../control-plane/problems/ci-state.js';
import { findCi } from '../../control-plane/cmdb/ci-checks.js';
import { positionOf, startAfter, type TreeFilter, type TreeListing, type TreePosition, treeListing, visibleChildCount, visiblePath } from '../../control-plane/cmdb/ci-tree.js';
import { canBasicRead, levelOn, type Subject } from '../../control-plane/rights/ci-rights.js';
import { fail, failFields } from '../../../schemas/errors.js';
import { defineRoute, json, type Route } from '../../runtime/http/route.js';
import type { ApiDeps } from '../api-deps.js';
import { principal } from '../auth.js';
import { problems } from '../../runtime/http/route-kit.js';
import { CMDB_PREFIX } from './reference.routes.js';
import { createVisibility } from './visibility.js';

const MAX_CACHED_LISTINGS = 32;

const encodeCursor = (position: TreePosition): string => Buffer.from(JSON.stringify([position.key, position.id])).toString('base64url');

function decodeCursor(text: string): TreePosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && Number.isSafeInteger(value[1])) return { key: value[0], id: value[1] as number };
  } catch {
    // answered below
  }
  throw failFields('http.query_invalid', [{ path: '/cursor', message: 'is not a nextCursor of this listing' }]);
}

/** `0` (the top level) or a positive CI id. */
function parentIdOf(value: string | undefined): number {
  const id = Number(value);
  if (!value || !/^\d+$/.test(value) || !Number.isSafeInteger(id)) {
    throw failFields('http.parameter_invalid', [{ path: '/parentId', message: 'must be 0 (the top level) or a CI id' }], {
      name: 'parent CI id',
      value: JSON.stringify(value ?? ''),
    });
  }
  return id;
}

function labelOf(text: string | undefined): TreeFilter['label'] {
  if (text === undefined) return undefined;
  const at = text.indexOf('=');
  return at < 0 ? { name: text } : { name: text.slice(0, at), value: text.slice(at + 1) };
}

const subjectKey = (subject: Subject): string => (subject.admin ? 'admin' : [...subject.workGroupIds].sort((a, b) => a - b).join(','));

export function treeRoutes(deps: ApiDeps): Route[] {
  const model = deps.controlPlane.model;
  const cmdb = model.slices.cmdb;
  const visibleTo = createVisibility(model);
  const listings = new Map<string, { revision: number; listing: TreeListing }>();

  const listingFor = (subject: Subject, visible: (id: number) => boolean, filter: TreeFilter): TreeListing => {
    const key = JSON.stringify([subjectKey(subject), filter.parentId, filter.search ?? null, filter.label ?? null]);
    const known = listings.get(key);
    if (known && known.revision === model.revision) return known.listing;
    const listing = treeListing(cmdb, visible, filter);
    listings.delete(key);
    if (listings.size >= MAX_CACHED_LISTINGS) listings.delete(listings.keys().next().value!);
    listings.set(key, { revision: model.revision, listing });
    return listing;
  };

  return [
    defineRoute({
      tags: ['cmdb'],
      security: 'bearer',
      authenticate: deps.auth.authenticate,
      method: 'GET',
      path: `${CMDB_PREFIX}/config-items/:parentId/children`,
      name: 'cmdb.listChildren',
      summary:
        'The children of a CI the caller may see, a page at a time by name; parentId 0: the top level (CIs without a parent or whose parent the caller may not see); with search or label, the matching CIs anywhere below',
      schema: {
        query: CiChildrenQuery,
        responses: { 200: { description: 'A page of CIs', schema: TreePage, example: treePageExample }, ...problems(400, 401, 403, 404) },
      },
      handler: (req) => {
        const parentId = parentIdOf(req.params['parentId']);
        const subject = principal(req).subject;
        if (parentId !== 0) {
          findCi(model, parentId);
          if (!canBasicRead(levelOn(cmdb, subject, parentId))) throw fail('ci.read_forbidden', { id: parentId });
        }
        const q = req.queryValues;
        const visible = visibleTo(subject);
        const label = labelOf(q.label);
        const filter: TreeFilter = { parentId, ...(q.search !== undefined ? { search: q.search } : {}), ...(label ? { label } : {}) };
        const listing = listingFor(subject, visible, filter);
        const from = startAfter(cmdb, listing, q.cursor === undefined ? undefined : decodeCursor(q.cursor));
        const ids = listing.ids.slice(from, from + (q.limit ?? 200));
        const now = deps.now();
        const flat = filter.search !== undefined || filter.label !== undefined;
        const items = ids.map((id): TreeCiModel => {
          const ci = cmdb.cis.get(id)!;
          const type = cmdb.types.get(ci.typeId);
          const item: TreeCiModel = {
            id,
            name: ci.name,
            configItemType: { id: ci.typeId, name: type?.name ?? '' },
            labels: ci.labels,
            childCount: visibleChildCount(cmdb, visible, id),
          };
          if (q.includeState) {
            const state = ciState(model, id, now);
            item.state = { value: state.value, valueUnderMaintenance: state.valueUnderMaintenance };
          }
          if (flat) item.path = visiblePath(cmdb, visible, id);
          return item;
        });
        const last = from + ids.length - 1;
        const more = from + ids.length < listing.ids.length;
        return json(200, { items, nextCursor: more ? encodeCursor(positionOf(cmdb, listing.ids[last]!)) : null, total: listing.ids.length });
      },
    }),
  ];
}
