/**
 * Admin API: the icons a CI type may have (spec 2.13 icon object). The built-in SVGs are listed
 * with the uploaded PNGs; an upload is the PNG itself as the body (image/png, at most 64 KiB).
 * The images are served, without a token, at their `iconUrl` (cmdb/reference.routes.ts).
 */
import Type from 'typebox';
import { CiTypeIconAdmin, type CiTypeIconAdminModel, ciTypeIconsExample, IconUploadQuery } from '../../../schemas/cmdb-reference.schema.js';
import { allIcons, findIcon, type IconInfo, iconObject } from '../../control-plane/cmdb/ci-type-icons.js';
import { deleteIcon, MAX_ICON_BYTES, MAX_UPLOADED_ICONS, uploadIcon } from '../../control-plane/cmdb/icon.commands.js';
import { MAX_ICON_DIMENSION } from '../../control-plane/cmdb/png-header.js';
import { defineRoute, json, noContent, type Route } from '../../runtime/http/route.js';
import { ADMIN, ADMIN_PREFIX, type ApiDeps, isoNow } from '../api-deps.js';
import { principal } from '../auth.js';
import { createIconImages } from '../cmdb/icon-images.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';

export const ICONS_ADMIN_PATH = `${ADMIN_PREFIX}/config-item-type-icons`;

export function ciTypeIconRoutes(deps: ApiDeps): Route[] {
  const cp = deps.controlPlane;
  const cmdb = cp.model.slices.cmdb;
  const images = createIconImages(cmdb);
  const base = { tags: ['admin'], security: 'bearer' as const, authenticate: deps.auth.requireRight(ADMIN) };
  const view = (icon: IconInfo): CiTypeIconAdminModel => ({
    ...iconObject(icon),
    builtIn: icon.builtIn,
    contentType: icon.contentType,
    bytes: images.of(icon.id)?.bytes.length ?? 0,
  });
  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: ICONS_ADMIN_PATH,
      name: 'admin.listCiTypeIcons',
      summary: 'List the icons a CI type may have: the built-in SVGs (ids below 1000), then the uploaded PNGs',
      schema: { responses: { 200: { description: 'Icons, by id', schema: Type.Array(CiTypeIconAdmin), example: ciTypeIconsExample }, ...problems(401, 403) } },
      handler: () => json(200, allIcons(cmdb).map(view)),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: ICONS_ADMIN_PATH,
      name: 'admin.uploadCiTypeIcon',
      summary:
        `Upload a PNG icon: the image as the body (image/png), at most ${MAX_ICON_BYTES / 1024} KiB (413 above) and ${MAX_ICON_DIMENSION}×${MAX_ICON_DIMENSION} pixels; ` +
        `its signature and IHDR chunk are checked (400 icon.not_png). At most ${MAX_UPLOADED_ICONS} uploaded icons`,
      rawBody: true,
      accepts: ['image/png'],
      maxBodyBytes: MAX_ICON_BYTES,
      schema: {
        query: IconUploadQuery,
        responses: { 201: { description: 'Uploaded', schema: CiTypeIconAdmin, example: ciTypeIconsExample[1] }, ...problems(400, 401, 403, 409, 413, 415) },
      },
      handler: async (req) => {
        const query = req.queryValues;
        const upload = { bytes: req.rawBody, name: query.name, fileName: query.fileName ?? null, actorId: principal(req).user.id, now: isoNow(deps) };
        const record = await cp.execute(uploadIcon(upload));
        return json(201, view(findIcon(cmdb, record.id)!));
      },
    }),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${ICONS_ADMIN_PATH}/:id`,
      name: 'admin.deleteCiTypeIcon',
      summary: 'Delete an uploaded icon no CI type has (built-in icons stay)',
      schema: { responses: { 204: { description: 'Deleted' }, ...problems(400, 401, 403, 404, 409) } },
      handler: async (req) => {
        await cp.execute(deleteIcon(parseId(req.params['id'])));
        return noContent();
      },
    }),
  ];
}
