/**
 * Spec 4.1 #1–#3: CI types, CMDB systems and workgroups, for any authenticated user; and the
 * images of the CI type icons (spec 2.13 `iconUrl`), for anyone (docs/decisions.md "CI type icons").
 */
import Type from 'typebox';
import { CiTypesQuery, CiTypeWithIcon, ciTypesExample, cmdbSystemsExample, ICON_PATH, NamedEntity, workGroupsExample } from '../../../schemas/cmdb-reference.schema.js';
import { ciTypeWithIcon } from '../../control-plane/cmdb/ci-type-icons.js';
import { fail } from '../../../schemas/errors.js';
import { defineRoute, json, type Reply, type Route } from '../../runtime/http/route.js';
import type { ApiDeps } from '../api-deps.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';
import { createIconImages, type IconImage } from './icon-images.js';

export const CMDB_PREFIX = '/api/public/sm/v2/rsm';

/**
 * An icon image cannot run anything: no script, no request of its own (an SVG opened by itself
 * is a document), and read only as what it says it is.
 */
export const ICON_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'x-content-type-options': 'nosniff',
} as const;
/** Uploaded images never change under their id; the built-in ones may with a release. */
export const ICON_CACHE = { uploaded: 'public, max-age=31536000, immutable', builtIn: 'public, max-age=86400' } as const;

/** Whether an If-None-Match header names the image's validator (RFC 9110 §13.1.2, weak comparison). */
const notModified = (header: string | undefined, etag: string): boolean =>
  header !== undefined && header.split(',').some((tag) => ['*', etag].includes(tag.trim().replace(/^W\//, '')));

function iconReply(image: IconImage, ifNoneMatch: string | undefined): Reply {
  const headers = { ...ICON_HEADERS, 'cache-control': image.builtIn ? ICON_CACHE.builtIn : ICON_CACHE.uploaded, etag: image.etag };
  if (notModified(ifNoneMatch, image.etag)) return { status: 304, headers };
  return { status: 200, headers: { ...headers, 'content-type': image.contentType }, body: image.bytes };
}

const headerDoc = (description: string) => ({ description, schema: Type.String() });

export function publicReferenceRoutes(deps: ApiDeps): Route[] {
  const model = deps.controlPlane.model;
  const base = { tags: ['cmdb'], security: 'bearer' as const, authenticate: deps.auth.authenticate };
  const byId = <T extends { id: number }>(items: Iterable<T>): T[] => [...items].sort((a, b) => a.id - b.id);
  const images = createIconImages(model.slices.cmdb);
  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: `${CMDB_PREFIX}/config-item-types`,
      name: 'cmdb.listConfigItemTypes',
      summary: '#1 CI types (with includeIcon=true, each with its icon)',
      schema: {
        query: CiTypesQuery,
        responses: {
          200: { description: 'CI types; each with `icon` only when includeIcon=true', schema: Type.Array(CiTypeWithIcon), example: ciTypesExample },
          ...problems(400, 401),
        },
      },
      handler: (req) => {
        const cmdb = model.slices.cmdb;
        const types = byId(cmdb.types.values());
        if (req.queryValues['includeIcon'] === true)
          return json(
            200,
            types.map((type) => ciTypeWithIcon(cmdb, type.id)),
          );
        return json(
          200,
          types.map(({ id, name, description }) => ({ id, name, description })),
        );
      },
    }),
    defineRoute({
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
    }),
    defineRoute({
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
    }),
    defineRoute({
      method: 'GET',
      path: `${ICON_PATH}/:id`,
      name: 'cmdb.getConfigItemTypeIcon',
      summary: 'The image of a CI type icon (its iconUrl): SVG for a built-in icon, PNG for an uploaded one; no token needed',
      tags: ['cmdb'],
      schema: {
        responses: {
          200: {
            description: 'The image, cacheable by anyone; sandboxed by its Content-Security-Policy so an SVG runs nothing',
            content: { 'image/svg+xml': {}, 'image/png': {} },
            headers: {
              'Cache-Control': headerDoc(`${ICON_CACHE.uploaded} for an uploaded icon (its bytes never change); ${ICON_CACHE.builtIn} for a built-in one`),
              ETag: headerDoc('The image’s validator, for If-None-Match'),
              'Content-Security-Policy': headerDoc(ICON_HEADERS['content-security-policy']),
              'X-Content-Type-Options': headerDoc(ICON_HEADERS['x-content-type-options']),
            },
          },
          304: { description: 'If-None-Match named the image’s ETag: the cached copy is current' },
          ...problems(400, 404),
        },
      },
      handler: (req) => {
        const id = parseId(req.params['id']);
        const image = images.of(id);
        if (!image) throw fail('icon.not_found', { id });
        return iconReply(image, req.headers['if-none-match']);
      },
    }),
  ];
}
