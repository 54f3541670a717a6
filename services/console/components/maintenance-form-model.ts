/**
 * The mode form's draft and its wire body: times are typed as wall-clock times in the chosen IANA
 * zone (the recurrence's zone, whose clock the windows keep) and sent as UTC instants, resolved
 * by the server's own rule (pipelines/time/time-zone.ts). Also the checks the server would make
 * that can be made here, so that the live preview does not ask about a body it would refuse.
 */
import { checkRecurrence, checkRecurrenceStart } from '../../../pipelines/maintenance/recurrence-check.js';
import { isTimeZone, localToUtc, utcToLocal } from '../../../pipelines/time/time-zone.js';
import type { ApiProblem } from '../app/api.js';
import type { PickedCi } from './ci-picker.js';
import type { PreviewBody } from './maintenance-preview.js';
import type { RecurrenceDraft } from './maintenance-rule-builder.js';

export interface ScopeDraft {
  key: number;
  ci: PickedCi | null;
  scope: 'Ci' | 'CiAndChildren';
  /** Empty: all levels. */
  depth: string;
}

export interface Draft {
  title: string;
  /** datetime-local values, wall-clock in `timeZone`. */
  start: string;
  end: string;
  timeZone: string;
  scopes: ScopeDraft[];
  labels: string;
  repeats: boolean;
  recurrence: RecurrenceDraft;
}

export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

const pad = (n: number): string => String(n).padStart(2, '0');

/** An instant as a datetime-local value on `timeZone`'s clock. */
export function localInput(iso: string, timeZone: string): string {
  const l = utcToLocal(Date.parse(iso), timeZone);
  return `${l.year}-${pad(l.month)}-${pad(l.day)}T${pad(l.hour)}:${pad(l.minute)}`;
}

/** A datetime-local value on `timeZone`'s clock as a UTC instant; null when unreadable. */
export function instantOf(value: string, timeZone: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m || !isTimeZone(timeZone)) return null;
  return localToUtc({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: Number(m[4]), minute: Number(m[5]), second: Number(m[6] ?? 0) }, timeZone);
}

/** Label lines `name=value` (or a name alone) as the API's dictionary. */
export function labelsOf(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const at = line.indexOf('=');
    labels[(at < 0 ? line : line.slice(0, at)).trim()] = at < 0 ? '' : line.slice(at + 1).trim();
  }
  return labels;
}

export const labelsText = (labels: Record<string, string>): string =>
  Object.entries(labels)
    .map(([k, v]) => (v === '' ? k : `${k}=${v}`))
    .join('\n');

export const exdatesOf = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((d) => d.trim())
    .filter(Boolean);

/** The instants the form sends: the mode's own when the field still shows them (keeps their seconds). */
export interface Fixed {
  start?: { input: string; iso: string };
  end?: { input: string; iso: string };
}

function isoOf(value: string, timeZone: string, fixed: { input: string; iso: string } | undefined): string | null {
  if (fixed && fixed.input === value) return fixed.iso;
  const ms = instantOf(value, timeZone);
  return ms === null ? null : new Date(ms).toISOString();
}

/** The body for create, replace and preview. */
export function bodyOf(d: Draft, fixed: Fixed): PreviewBody {
  const dateStart = isoOf(d.start, d.timeZone, fixed.start);
  const dateEnd = isoOf(d.end, d.timeZone, fixed.end);
  return {
    title: d.title.trim() === '' ? null : d.title.trim(),
    dateStart,
    dateEnd,
    configItems: d.scopes
      .filter((s) => s.ci)
      .map((s) => ({ id: s.ci!.id, scope: s.scope, ...(s.scope === 'CiAndChildren' ? { depth: s.depth.trim() === '' ? -1 : Number(s.depth) } : {}) })),
    labels: labelsOf(d.labels),
    recurrence: d.repeats ? { rule: d.recurrence.rule.trim(), timeZone: d.timeZone, exdates: exdatesOf(d.recurrence.exdates) } : null,
  };
}

/**
 * What keeps the preview from being asked: a missing field (said in `why`), or a problem the
 * server would answer with 400 (as field errors, at the server's paths).
 */
export function readiness(body: PreviewBody): { why?: string; problem?: ApiProblem } {
  const errors: Array<{ path: string; message: string }> = [];
  const zone = body.recurrence?.timeZone;
  if (!body.dateStart || !body.dateEnd) return { why: 'The preview appears once the start, the end and a CI are given.' };
  if (Date.parse(body.dateEnd) <= Date.parse(body.dateStart)) errors.push({ path: '/dateEnd', message: 'must be after the start' });
  for (const [i, s] of (body.configItems ?? []).entries()) {
    if (s.depth != null && (!Number.isInteger(s.depth) || s.depth < -1))
      errors.push({ path: `/configItems/${i}/depth`, message: 'must be a whole number from 0, or empty for all levels' });
  }
  if (body.recurrence) {
    const checked = checkRecurrence(body.recurrence);
    errors.push(...checked);
    if (checked.length === 0 && zone) errors.push(...checkRecurrenceStart(body.recurrence, Date.parse(body.dateStart)));
  }
  if (errors.length > 0) return { problem: { status: 400, title: 'The mode is not valid yet', errors } };
  if (!body.configItems || body.configItems.length === 0) return { why: 'The preview appears once the start, the end and a CI are given.' };
  return {};
}
