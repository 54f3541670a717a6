/** Admin commands on CI types and CMDB systems. */
import type { CiTypeCreateBody, CiTypePatchBody, CmdbSystemCreateBody } from '../../../schemas/cmdb-reference.schema.js';
import type { JournalChange } from '../../runtime/adapters/journal/journal.port.js';
import { fail } from '../../../schemas/errors.js';
import type { PlatformCommand, PlatformModel } from '../model.js';
import type { CiTypeRecord, CmdbSystemRecord } from './cmdb.types.js';
import { resolveIcon } from './icon.commands.js';

/** A new id from the sequence, or the client's own when unused. */
function allocate(model: PlatformModel, sequence: string, taken: (id: number) => boolean, wanted: number | undefined, what: string): { id: number; changes: JournalChange[] } {
  if (wanted === undefined) {
    const { id, change } = model.sequences.next(sequence);
    return { id, changes: [change] };
  }
  if (taken(wanted)) throw fail('reference.id_taken', { what, id: wanted });
  const bumped = model.sequences.bump(sequence, wanted);
  return { id: wanted, changes: bumped ? [bumped] : [] };
}

/** Setting a type as default takes the flag from the previous default. */
function defaultSwitch(model: PlatformModel, except: number): JournalChange[] {
  const previous = model.slices.cmdb.defaultType();
  return previous && previous.id !== except ? [{ key: `citype:${previous.id}`, value: { ...previous, isDefault: false } }] : [];
}

export function createCiType(body: CiTypeCreateBody): PlatformCommand<CiTypeRecord> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    for (const type of cmdb.types.values()) if (type.name === body.name) throw fail('ci_type.name_taken', { name: body.name });
    const { id, changes } = allocate(model, 'citype', (i) => cmdb.types.has(i), body.id, 'CI type');
    const iconId = resolveIcon(model, body.iconId ?? null);
    const isDefault = body.isDefault === true || cmdb.defaultType() === undefined;
    if (isDefault) changes.push(...defaultSwitch(model, id));
    changes.push({ key: `citype:${id}`, value: { id, name: body.name, description: body.description ?? '', isDefault, iconId } satisfies CiTypeRecord });
    return { changes, result: (m) => m.slices.cmdb.types.get(id)! };
  };
}

export function patchCiType(id: number, body: CiTypePatchBody): PlatformCommand<CiTypeRecord> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    const type = cmdb.types.get(id);
    if (!type) throw fail('ci_type.not_found', { id });
    if (body.name !== undefined) {
      for (const other of cmdb.types.values()) if (other.name === body.name && other.id !== id) throw fail('ci_type.name_taken', { name: body.name });
    }
    const iconId = body.iconId === undefined ? (type.iconId ?? null) : resolveIcon(model, body.iconId);
    const changes = body.isDefault ? defaultSwitch(model, id) : [];
    changes.push({ key: `citype:${id}`, value: { ...type, ...body, isDefault: type.isDefault || body.isDefault === true, iconId } satisfies CiTypeRecord });
    return { changes, result: (m) => m.slices.cmdb.types.get(id)! };
  };
}

export function deleteCiType(id: number): PlatformCommand<void> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    const type = cmdb.types.get(id);
    if (!type) throw fail('ci_type.not_found', { id });
    if (type.isDefault) throw fail('ci_type.is_default', { id });
    for (const ci of cmdb.cis.values()) if (ci.typeId === id) throw fail('ci_type.in_use', { ciId: ci.id, id });
    return { changes: [{ key: `citype:${id}`, value: null }], result: () => undefined };
  };
}

export function createCmdbSystem(body: CmdbSystemCreateBody): PlatformCommand<CmdbSystemRecord> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    for (const system of cmdb.systems.values()) if (system.name === body.name) throw fail('cmdb_system.name_taken', { name: body.name });
    const { id, changes } = allocate(model, 'cmdbsystem', (i) => cmdb.systems.has(i), body.id, 'CMDB system');
    changes.push({ key: `cmdbsystem:${id}`, value: { id, name: body.name } satisfies CmdbSystemRecord });
    return { changes, result: (m) => m.slices.cmdb.systems.get(id)! };
  };
}

export function renameCmdbSystem(id: number, name: string): PlatformCommand<CmdbSystemRecord> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    const system = cmdb.systems.get(id);
    if (!system) throw fail('cmdb_system.not_found', { id });
    for (const other of cmdb.systems.values()) if (other.name === name && other.id !== id) throw fail('cmdb_system.name_taken', { name });
    return { changes: [{ key: `cmdbsystem:${id}`, value: { ...system, name } }], result: (m) => m.slices.cmdb.systems.get(id)! };
  };
}

export function deleteCmdbSystem(id: number): PlatformCommand<void> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    if (!cmdb.systems.has(id)) throw fail('cmdb_system.not_found', { id });
    for (const ci of cmdb.cis.values()) if (ci.cmdbSystemId === id) throw fail('cmdb_system.in_use', { ciId: ci.id, id });
    return { changes: [{ key: `cmdbsystem:${id}`, value: null }], result: () => undefined };
  };
}
