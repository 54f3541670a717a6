/**
 * The images behind `iconUrl`: the built-in SVGs, read once when the routes are built, and the
 * uploaded PNGs, decoded from their journal records on first use and kept while the record is.
 */
import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CmdbSlice } from '../../control-plane/cmdb/cmdb.slice.js';
import type { CiTypeIconRecord } from '../../control-plane/cmdb/cmdb.types.js';
import { BUILT_IN_ICONS } from '../../control-plane/cmdb/icons/built-in-icons.js';

export interface IconImage {
  bytes: Buffer;
  contentType: 'image/svg+xml' | 'image/png';
  /** A strong validator: the image's SHA-256 (base64url, 128 bits). */
  etag: string;
  builtIn: boolean;
}

const ICON_DIR = new URL('../../control-plane/cmdb/icons/', import.meta.url);
const etagOf = (bytes: Buffer): string => `"${hash('sha256', bytes, 'base64url').slice(0, 22)}"`;

export interface IconImages {
  /** The image of a built-in or uploaded icon, or undefined when there is no such icon. */
  of(id: number): IconImage | undefined;
}

export function createIconImages(cmdb: CmdbSlice): IconImages {
  const builtIn = new Map<number, IconImage>(
    BUILT_IN_ICONS.map((icon) => {
      const bytes = readFileSync(new URL(icon.file, ICON_DIR));
      return [icon.id, { bytes, contentType: 'image/svg+xml', etag: etagOf(bytes), builtIn: true }];
    }),
  );
  // By record: a deleted icon's record goes, and its decoded bytes with it.
  const decoded = new WeakMap<CiTypeIconRecord, IconImage>();
  return {
    of(id) {
      const fixed = builtIn.get(id);
      if (fixed) return fixed;
      const record = cmdb.icons.get(id);
      if (!record) return undefined;
      let image = decoded.get(record);
      if (!image) {
        const bytes = Buffer.from(record.data, 'base64');
        image = { bytes, contentType: record.contentType, etag: etagOf(bytes), builtIn: false };
        decoded.set(record, image);
      }
      return image;
    },
  };
}
