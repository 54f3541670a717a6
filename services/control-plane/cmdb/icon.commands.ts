/** Admin commands on uploaded CI type icons; the built-in ones are fixed (icons/built-in-icons.ts). */
import { fail, failFields } from '../../../schemas/errors.js';
import type { PlatformCommand, PlatformModel } from '../model.js';
import { findIcon } from './ci-type-icons.js';
import type { CiTypeIconRecord } from './cmdb.types.js';
import { FIRST_UPLOADED_ICON_ID } from './icons/built-in-icons.js';
import { readPngHeader } from './png-header.js';

/** The largest PNG an icon may be: the upload route's body limit (413 above it, before it is read). */
export const MAX_ICON_BYTES = 64 * 1024;
/**
 * At most this many uploaded icons: every process holds them in memory with the rest of the
 * control plane (64 KiB each, base64 in the journal), so 200 bound that to about 17 MB.
 */
export const MAX_UPLOADED_ICONS = 200;

export interface IconUpload {
  bytes: Uint8Array;
  name: string;
  fileName: string | null;
  actorId: number;
  now: string;
}

export function uploadIcon(upload: IconUpload): PlatformCommand<CiTypeIconRecord> {
  const header = readPngHeader(upload.bytes);
  if (!header.ok) throw fail('icon.not_png', { reason: header.reason });
  const data = Buffer.from(upload.bytes.buffer, upload.bytes.byteOffset, upload.bytes.byteLength).toString('base64');
  return (model) => {
    const cmdb = model.slices.cmdb;
    if (cmdb.icons.size >= MAX_UPLOADED_ICONS) throw fail('icon.limit_reached', { limit: MAX_UPLOADED_ICONS });
    const { id, change } = model.sequences.next('citypeicon', FIRST_UPLOADED_ICON_ID - 1);
    const record: CiTypeIconRecord = {
      id,
      name: upload.name,
      fileName: upload.fileName,
      contentType: 'image/png',
      data,
      bytes: upload.bytes.length,
      width: header.width,
      height: header.height,
      createdAt: upload.now,
      createdBy: upload.actorId,
    };
    return { changes: [change, { key: `citypeicon:${id}`, value: record }], result: (m) => m.slices.cmdb.icons.get(id)! };
  };
}

export function deleteIcon(id: number): PlatformCommand<void> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    const icon = findIcon(cmdb, id);
    if (!icon) throw fail('icon.not_found', { id });
    if (icon.builtIn) throw fail('icon.built_in', { id });
    for (const type of cmdb.types.values()) if (type.iconId === id) throw fail('icon.in_use', { id, typeId: type.id });
    return { changes: [{ key: `citypeicon:${id}`, value: null }], result: () => undefined };
  };
}

/** The icon a CI type body names: null for none, 400 for one that does not exist. */
export function resolveIcon(model: PlatformModel, iconId: number | null): number | null {
  if (iconId === null) return null;
  if (!findIcon(model.slices.cmdb, iconId)) throw failFields('icon.unknown', [{ path: '/iconId', message: 'no such icon' }], { id: iconId });
  return iconId;
}
