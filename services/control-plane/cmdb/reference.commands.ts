/** Admin commands on CI types and CMDB systems. */
import type { CiTypeCreateBody, CiTypePatchBody, CmdbSystemCreateBody } from '../../../schemas/cmdb-reference.schema.js';
import { errors } from '../../runtime/errors.js';
import type { JournalChange } from '../../runtime/adapters/journal/journal.port.js';
import type { PlatformCommand, PlatformModel } from '../slices.js';
import type { CiTypeRecord, CmdbSystemRecord } from './cmdb.types.js';

/** A new id from the sequence, or the client's own when unused. */
function allocate(model: PlatformModel, sequence: string, taken: (id: number) => boolean, wanted: number | undefined, what: string): { id: number; changes: JournalChange[] } {
  if (wanted === undefined) {
    const { id, change } = model.sequences.next(sequence);
    return { id, changes: [change] };
  }
  if (taken(wanted)) throw errors.conflict(`${what} ${wanted} already exists`);
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
    for (const type of cmdb.types.values()) if (type.name === body.name) throw errors.conflict(`A CI type named ${body.name} already exists`);
    const { id, changes } = allocate(model, 'citype', (i) => cmdb.types.has(i), body.id, 'CI type');
    const isDefault = body.isDefault === true || cmdb.defaultType() === undefined;
    if (isDefault) changes.push(...defaultSwitch(model, id));
    changes.push({ key: `citype:${id}`, value: { id, name: body.name, description: body.description ?? '', isDefault } satisfies CiTypeRecord });
    return { changes, result: (m) => m.slices.cmdb.types.get(id)! };
  };
}

export function patchCiType(id: number, body: CiTypePatchBody): PlatformCommand<CiTypeRecord> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    const type = cmdb.types.get(id);
    if (!type) throw errors.notFound(`CI type ${id} not found`);
    if (body.name !== undefined) {
      for (const other of cmdb.types.values()) if (other.name === body.name && other.id !== id) throw errors.conflict(`A CI type named ${body.name} already exists`);
    }
    const changes = body.isDefault ? defaultSwitch(model, id) : [];
    changes.push({ key: `citype:${id}`, value: { ...type, ...body, isDefault: type.isDefault || body.isDefault === true } });
    return { changes, result: (m) => m.slices.cmdb.types.get(id)! };
  };
}

export function deleteCiType(id: number): PlatformCommand<void> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    const type = cmdb.types.get(id);
    if (!type) throw errors.notFound(`CI type ${id} not found`);
    if (type.isDefault) throw errors.conflict(`CI type ${id} is the default type; make another type default first`);
    for (const ci of cmdb.cis.values()) if (ci.typeId === id) throw errors.conflict(`CI ${ci.id} has type ${id}; change or delete it first`);
    return { changes: [{ key: `citype:${id}`, value: null }], result: () => undefined };
  };
}

export function createCmdbSystem(body: CmdbSystemCreateBody): PlatformCommand<CmdbSystemRecord> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    for (const system of cmdb.systems.values()) if (system.name === body.name) throw errors.conflict(`A CMDB system named ${body.name} already exists`);
    const { id, changes } = allocate(model, 'cmdbsystem', (i) => cmdb.systems.has(i), body.id, 'CMDB system');
    changes.push({ key: `cmdbsystem:${id}`, value: { id, name: body.name } satisfies CmdbSystemRecord });
    return { changes, result: (m) => m.slices.cmdb.systems.get(id)! };
  };
}

export function renameCmdbSystem(id: number, name: string): PlatformCommand<CmdbSystemRecord> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    const system = cmdb.systems.get(id);
    if (!system) throw errors.notFound(`CMDB system ${id} not found`);
    for (const other of cmdb.systems.values()) if (other.name === name && other.id !== id) throw errors.conflict(`A CMDB system named ${name} already exists`);
    return { changes: [{ key: `cmdbsystem:${id}`, value: { ...system, name } }], result: (m) => m.slices.cmdb.systems.get(id)! };
  };
}

export function deleteCmdbSystem(id: number): PlatformCommand<void> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    if (!cmdb.systems.has(id)) throw errors.notFound(`CMDB system ${id} not found`);
    for (const ci of cmdb.cis.values()) if (ci.cmdbSystemId === id) throw errors.conflict(`CI ${ci.id} was created on CMDB system ${id}`);
    return { changes: [{ key: `cmdbsystem:${id}`, value: null }], result: () => undefined };
  };
}
