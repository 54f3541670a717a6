/**
 * The CMDB screens' wire types (all taken from app/api-schema.d.ts) and the small pure helpers
 * they share: labels to and from the text the forms edit, a CI state as words and a colour, and a
 * problem's message placed at the form field it concerns.
 */
import { type ApiProblem, fieldError } from '../app/api.js';
import type { operations } from '../app/api-schema.js';

type Ok<O, S extends number = 200> = O extends { responses: { [K in S]: { content: { 'application/json': infer T } } } } ? T : never;

export type ConfigItem = Ok<operations['cmdb.getConfigItem']>;
export type TreePage = Ok<operations['cmdb.listChildren']>;
export type TreeCi = TreePage['items'][number];
export type CiTypeRef = Ok<operations['cmdb.listConfigItemTypes']>[number];
export type WorkGroup = Ok<operations['cmdb.listWorkGroups']>[number];
export type Labels = NonNullable<ConfigItem['labels']>;
export type Grant = ConfigItem['sharedToWorkGroups'][number];
export type ShareType = Grant['shareType'];
export type Right = Grant['grants'][number];
export type LiveSla = NonNullable<ConfigItem['sla']>;
export type CiCreateBody = NonNullable<operations['cmdb.createConfigItem']['requestBody']>['content']['application/json'];
export type CiUpdateBody = NonNullable<operations['cmdb.updateConfigItem']['requestBody']>['content']['application/json'];
export type OpenProblem = Ok<operations['problems.list']>['items'][number];
export type MaintenanceMode = Ok<operations['maintenance.filterModes']>[number];

export const SHARE_TYPES: ReadonlyArray<{ value: ShareType; label: string }> = [
  { value: 'ConfigItem', label: 'This CI only' },
  { value: 'Tree', label: 'This CI and everything below it' },
  { value: 'ChildrenTree', label: 'Only what is below this CI' },
];

export const RIGHTS: ReadonlyArray<{ value: Right; label: string }> = [
  { value: 'base-system.rsm.basic-read', label: 'Basic read' },
  { value: 'base-system.rsm.monitoring-read', label: 'Monitoring read' },
  { value: 'base-system.rsm.read', label: 'Read' },
  { value: 'base-system.rsm.write', label: 'Write' },
];

export const rightLabel = (right: string): string => RIGHTS.find((r) => r.value === right)?.label ?? right;
export const shareTypeLabel = (type: string): string => SHARE_TYPES.find((s) => s.value === type)?.label ?? type;

/** Labels as lines: `name=value`, a name once per value of a list, a bare `name` for null. */
export function labelsToText(labels: Labels | null | undefined): string {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(labels ?? {})) {
    if (value === null) lines.push(name);
    else if (Array.isArray(value)) for (const v of value) lines.push(`${name}=${v}`);
    else lines.push(`${name}=${value}`);
  }
  return lines.join('\n');
}

/** The inverse of labelsToText; a name given twice becomes a list. Empty lines are ignored. */
export function textToLabels(text: string): Labels {
  const labels: Labels = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const at = line.indexOf('=');
    const name = (at < 0 ? line : line.slice(0, at)).trim();
    if (at < 0) {
      if (!(name in labels)) labels[name] = null;
      continue;
    }
    const value = line.slice(at + 1).trim();
    const before = labels[name];
    if (before === undefined || before === null) labels[name] = value;
    else labels[name] = Array.isArray(before) ? [...before, value] : [before, value];
  }
  return labels;
}

/** One label as the tree and the CI page show it. */
export const labelText = (name: string, value: string | string[] | null): string => (value === null ? name : `${name}=${Array.isArray(value) ? value.join(', ') : value}`);

export type StateTone = 'ok' | 'warning' | 'problem' | 'unknown' | 'maintenance';

/** A CI state in words and a tone (a colour class): never the colour alone. */
export function describeState(state: { value: string; valueUnderMaintenance: string } | null | undefined): { tone: StateTone; text: string } {
  if (!state) return { tone: 'unknown', text: 'State unknown' };
  const inMaintenance = state.valueUnderMaintenance !== 'Unknown';
  const base = state.value === 'Ok' ? 'OK' : state.value === 'Problem' ? 'Problem' : 'Unknown';
  if (inMaintenance) return { tone: 'maintenance', text: `${base}, in maintenance` };
  return { tone: state.value === 'Ok' ? 'ok' : state.value === 'Problem' ? 'problem' : 'unknown', text: base };
}

/** A health figure (0–100) as a tone. */
export const healthTone = (value: number): StateTone => (value >= 100 ? 'ok' : value >= 50 ? 'warning' : 'problem');

/**
 * The message for one form field: the API's field error at `/field` (or below it), or, for a
 * problem the API answers without a field but that plainly concerns this one (by its code), its
 * detail.
 */
export function errorAt(problem: ApiProblem | undefined, field: string, codes: readonly string[] = []): string | undefined {
  if (!problem) return undefined;
  return fieldError(problem, field) ?? (problem.code && codes.includes(problem.code) ? problem.detail : undefined);
}

/** The message for the whole form, when no field took the problem. */
export function formError(problem: ApiProblem | undefined, placed: ReadonlyArray<string | undefined>): string | undefined {
  if (!problem || placed.some((m) => m !== undefined)) return undefined;
  const fields = problem.errors?.map((e) => `${e.path.replace(/^\//, '')}: ${e.message}`).join('; ');
  return [problem.detail ?? problem.title, fields].filter(Boolean).join(' — ');
}

/** A listing's label filter as the URL holds it (`env` or `env=prod`), checked for the API. */
export function parseLabelFilter(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : trimmed;
}

export const ciPath = (id: number): string => `/cmdb/ci/${id}`;
