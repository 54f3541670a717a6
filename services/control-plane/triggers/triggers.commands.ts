/**
 * Admin commands on synthetic triggers (DESIGN §7). The schema has checked the shape; these
 * check what only the model knows (streams, CIs and CI types exist, the name is free) and what
 * the schema cannot say (patterns are RE2 within the limits, priority map keys are not empty). Every failed check
 * is reported at once, each with the JSON pointer of its field.
 */
import { compileLinearPattern } from '../../../pipelines/records/linear-pattern.js';
import type { TriggerCreateBody, TriggerPatchBody } from '../../../schemas/trigger.schema.js';
import { type FieldError, fail, failFields } from '../../../schemas/errors.js';
import { closeProblemsOfTrigger } from '../problems/problems.commands.js';
import type { PlatformCommand, PlatformModel } from '../model.js';
import type { TriggerRecord } from './triggers.slice.js';

/** The fields a client sets; the rest (id, dates) belong to the platform. */
type TriggerFields = Omit<TriggerRecord, 'id' | 'createdAt' | 'updatedAt'>;

function findTrigger(model: PlatformModel, id: number): TriggerRecord {
  const trigger = model.slices.triggers.triggers.get(id);
  if (!trigger) throw fail('trigger.not_found', { id });
  return trigger;
}

/** JSON pointer escaping of one reference token (RFC 6901). */
const token = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The checks beyond the schema, as field errors (empty when the trigger is valid). */
export function triggerFieldErrors(model: PlatformModel, trigger: TriggerFields): FieldError[] {
  const out: FieldError[] = [];
  const { streams } = model.slices.streams;
  const { cis, types } = model.slices.cmdb;
  trigger.streamIds.forEach((streamId, i) => {
    if (!streams.has(streamId)) out.push({ path: `/streamIds/${i}`, message: `stream ${streamId} does not exist` });
  });
  trigger.match.forEach((condition, i) => {
    if (condition.op !== 'regex') return;
    // RE2 syntax, matched in linear time (pipelines/records/linear-pattern.ts says what is refused).
    const compiled = compileLinearPattern(condition.pattern);
    if (!compiled.ok) out.push({ path: `/match/${i}/pattern`, message: `is not accepted: ${compiled.reason}` });
  });
  const ci = trigger.ci;
  if (ci.by === 'fixed' && !cis.has(ci.id)) out.push({ path: '/ci/id', message: `CI ${ci.id} does not exist` });
  if (ci.by === 'nameField' && ci.ciTypeId !== undefined && !types.has(ci.ciTypeId)) {
    out.push({ path: '/ci/ciTypeId', message: `CI type ${ci.ciTypeId} does not exist` });
  }
  if ('map' in trigger.priority) {
    for (const key of Object.keys(trigger.priority.map)) {
      if (key === '') out.push({ path: `/priority/map/${token(key)}`, message: 'a priority map key must not be empty' });
    }
  }
  return out;
}

function check(model: PlatformModel, trigger: TriggerFields, except?: number): void {
  const fieldErrors = triggerFieldErrors(model, trigger);
  if (fieldErrors.length > 0) throw failFields('trigger.references_invalid', fieldErrors);
  for (const t of model.slices.triggers.triggers.values()) {
    if (t.name === trigger.name && t.id !== except) throw fail('trigger.name_taken', { name: trigger.name });
  }
}

export function createTrigger(body: TriggerCreateBody, now: string): PlatformCommand<TriggerRecord> {
  return (model) => {
    const fields: TriggerFields = { ...body, description: body.description ?? '', enabled: body.enabled ?? true, tags: body.tags ?? [], incidents: body.incidents ?? [] };
    check(model, fields);
    const { id, change } = model.sequences.next('trigger');
    const trigger: TriggerRecord = { id, ...fields, createdAt: now, updatedAt: now };
    return { changes: [change, { key: `trigger:${id}`, value: trigger }], result: (m) => m.slices.triggers.triggers.get(id)! };
  };
}

/** Top-level fields of the body replace the trigger's; the result is checked as a whole. */
export function patchTrigger(id: number, body: TriggerPatchBody, now: string): PlatformCommand<TriggerRecord> {
  return (model) => {
    const trigger = findTrigger(model, id);
    if (Object.keys(body).length === 0) return { changes: [], result: (m) => m.slices.triggers.triggers.get(id)! };
    const next: TriggerRecord = { ...trigger, ...body, id, createdAt: trigger.createdAt, updatedAt: now };
    check(model, next, id);
    return { changes: [{ key: `trigger:${id}`, value: next }], result: (m) => m.slices.triggers.triggers.get(id)! };
  };
}

/** Deletes a trigger; its open problems end at the delete (DESIGN §7: nothing would resolve them). */
export function deleteTrigger(id: number, now: string): PlatformCommand<void> {
  return (model) => {
    findTrigger(model, id);
    return { changes: [{ key: `trigger:${id}`, value: null }, ...closeProblemsOfTrigger(model, id, Date.parse(now))], result: () => undefined };
  };
}
