/** Admin commands on streams (DESIGN §6): keys are generated here and rotatable. */
import { compileLinearPattern } from '../../../pipelines/records/linear-pattern.js';
import { isTimeZone } from '../../../pipelines/time/time-zone.js';
import type { StreamConfigModel, StreamCreateBody, StreamPatchBody } from '../../../schemas/stream.schema.js';
import { fail, failFields } from '../../../schemas/errors.js';
import type { PlatformCommand, PlatformModel } from '../model.js';
import type { StreamRecord } from './streams.slice.js';

export type StreamStatus = StreamRecord['status'];

function findStream(model: PlatformModel, id: number): StreamRecord {
  const stream = model.slices.streams.streams.get(id);
  if (!stream) throw fail('stream.not_found', { id });
  return stream;
}

/**
 * A regex parser must be RE2 within the limits (matched in linear time, linear-pattern.ts) and
 * name its groups, or records would silently lose fields. The syslog preset's time zone must be
 * one the runtime knows, or every undated-zone line would be dead-lettered.
 */
export function checkStreamConfig(config: StreamConfigModel | undefined): void {
  const parser = config?.parser;
  if (parser?.type === 'syslog' && parser.timeZone !== undefined && !isTimeZone(parser.timeZone)) {
    throw failFields('stream.time_zone_invalid', [{ path: '/config/parser/timeZone', message: `${JSON.stringify(parser.timeZone)} is not an IANA time zone` }], {
      timeZone: parser.timeZone,
    });
  }
  if (parser?.type === 'text' && parser.pattern !== undefined) {
    const compiled = compileLinearPattern(parser.pattern);
    if (!compiled.ok) throw failFields('stream.pattern_invalid', [{ path: '/config/parser/pattern', message: `is not accepted: ${compiled.reason}` }]);
    if (compiled.pattern.groupNames.length === 0) {
      throw failFields('stream.pattern_without_group', [{ path: '/config/parser/pattern', message: 'has no named group (?<name>...)' }]);
    }
  }
}

function checkName(model: PlatformModel, name: string, except?: number): void {
  for (const s of model.slices.streams.streams.values()) if (s.name === name && s.id !== except) throw fail('stream.name_taken', { name });
}

export function createStream(body: StreamCreateBody, key: string, now: string): PlatformCommand<StreamRecord> {
  return (model) => {
    checkName(model, body.name);
    checkStreamConfig(body.config);
    const { id, change } = model.sequences.next('stream');
    const stream: StreamRecord = { id, name: body.name, key, status: body.status ?? 'active', config: body.config ?? {}, createdAt: now, updatedAt: now };
    return { changes: [change, { key: `stream:${id}`, value: stream }], result: (m) => m.slices.streams.streams.get(id)! };
  };
}

export function patchStream(id: number, body: StreamPatchBody, now: string): PlatformCommand<StreamRecord> {
  return (model) => {
    const stream = findStream(model, id);
    if (body.name !== undefined) checkName(model, body.name, id);
    if (body.config !== undefined) checkStreamConfig(body.config);
    const next: StreamRecord = { ...stream, ...body, updatedAt: now };
    return { changes: [{ key: `stream:${id}`, value: next }], result: (m) => m.slices.streams.streams.get(id)! };
  };
}

export function rotateStreamKey(id: number, key: string, now: string): PlatformCommand<StreamRecord> {
  return (model) => {
    const stream = findStream(model, id);
    return { changes: [{ key: `stream:${id}`, value: { ...stream, key, updatedAt: now } }], result: (m) => m.slices.streams.streams.get(id)! };
  };
}

/** activate / deactivate / mark for deletion; a stream pending deletion can only be deleted. */
export function setStreamStatus(id: number, status: StreamStatus, now: string): PlatformCommand<StreamRecord> {
  return (model) => {
    const stream = findStream(model, id);
    if (stream.status === 'pendingDeletion' && status !== 'pendingDeletion') {
      throw fail('stream.pending_deletion', { id });
    }
    if (stream.status === status) return { changes: [], result: (m) => m.slices.streams.streams.get(id)! };
    return { changes: [{ key: `stream:${id}`, value: { ...stream, status, updatedAt: now } }], result: (m) => m.slices.streams.streams.get(id)! };
  };
}

export function deleteStream(id: number): PlatformCommand<void> {
  return (model) => {
    findStream(model, id);
    return { changes: [{ key: `stream:${id}`, value: null }], result: () => undefined };
  };
}
