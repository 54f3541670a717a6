/**
 * CI type icons (spec 2.13 "Icon object"): the built-in set (icons/built-in-icons.ts) and the
 * uploaded PNGs (`citypeicon:` records), one id space, and the wire forms that carry them.
 */
import { type CiTypeIconModel, iconUrlOf } from '../../../schemas/cmdb-reference.schema.js';
import { USERSPACE_ID } from '../../../schemas/sla-template.schema.js';
import type { CmdbSlice } from './cmdb.slice.js';
import { BUILT_IN_ICONS, builtInIcon } from './icons/built-in-icons.js';

/** What the platform knows of an icon, built-in or uploaded. */
export interface IconInfo {
  id: number;
  name: string;
  fileName: string | null;
  builtIn: boolean;
  contentType: 'image/svg+xml' | 'image/png';
}

export function findIcon(cmdb: CmdbSlice, id: number): IconInfo | undefined {
  const builtIn = builtInIcon(id);
  if (builtIn) return { id, name: builtIn.name, fileName: null, builtIn: true, contentType: 'image/svg+xml' };
  const uploaded = cmdb.icons.get(id);
  return uploaded && { id, name: uploaded.name, fileName: uploaded.fileName, builtIn: false, contentType: uploaded.contentType };
}

/** Every icon, built-in first, by id. */
export function allIcons(cmdb: CmdbSlice): IconInfo[] {
  const uploaded = [...cmdb.icons.keys()].sort((a, b) => a - b);
  return [...BUILT_IN_ICONS.map((icon) => icon.id), ...uploaded].map((id) => findIcon(cmdb, id)!);
}

/** The icon object of spec 2.13. The platform has one userspace (docs/decisions.md). */
export const iconObject = (icon: Pick<IconInfo, 'id' | 'name' | 'fileName'>): CiTypeIconModel => ({
  id: icon.id,
  name: icon.name,
  fileName: icon.fileName,
  userspaceId: USERSPACE_ID,
  iconUrl: iconUrlOf(icon.id),
});

/** The icon of a CI type as the wire shows it: null when it has none (or, defensively, a vanished one). */
export function iconOfType(cmdb: CmdbSlice, typeId: number): CiTypeIconModel | null {
  const iconId = cmdb.types.get(typeId)?.iconId;
  const icon = iconId === undefined || iconId === null ? undefined : findIcon(cmdb, iconId);
  return icon ? iconObject(icon) : null;
}

/** A CI type as the CI model, the problems and the SLA exports name it, with its icon. */
export function ciTypeWithIcon(cmdb: CmdbSlice, typeId: number): { id: number; name: string; description: string; icon: CiTypeIconModel | null } {
  const type = cmdb.types.get(typeId);
  return { id: typeId, name: type?.name ?? '', description: type?.description ?? '', icon: iconOfType(cmdb, typeId) };
}
