/**
 * The trigger editor's draft: the form's text as typed, to and from the admin API's trigger
 * body. Values are sent as text: the trigger compares record values with its values as text
 * (`"5"` equals 5), so nothing is lost. Numbers that do not parse are reported at their field
 * here, before the API is asked.
 */
import type { ApiProblem } from '../app/api.js';
import type { operations } from '../app/api-schema.js';
import type { PickedCi } from './ci-picker.js';

export type TriggerBody = operations['admin.createTrigger']['requestBody']['content']['application/json'];
export type Trigger = operations['admin.getTrigger']['responses'][200]['content']['application/json'];
export type Op = TriggerBody['match'][number]['op'];

export interface ConditionDraft {
  key: number;
  field: string;
  op: Op;
  /** equals: the value; in: values separated by commas; regex: the pattern; exists: unused. */
  value: string;
}

export interface Draft {
  name: string;
  description: string;
  enabled: boolean;
  streamIds: number[];
  match: ConditionDraft[];
  ciBy: 'idField' | 'nameField' | 'fixed';
  ciField: string;
  ciTypeId: string;
  ciFixed: PickedCi | null;
  priorityBy: 'value' | 'field';
  priorityValue: string;
  priorityField: string;
  /** One `value=priority` a line. */
  priorityMap: string;
  priorityDefault: string;
  resolveField: string;
  resolveValues: string;
  /** One `id, name, colour` a line. */
  tags: string;
  /** One `connector id, connector name, field, type` a line. */
  incidents: string;
  influenceValue: string;
  maxInfluence: boolean;
  lateWindowMinutes: string;
}

let nextKey = 1;
export const conditionKey = (): number => nextKey++;

const list = (text: string): string[] =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

export function newDraft(streamId: number | undefined): Draft {
  return {
    name: '',
    description: '',
    enabled: true,
    streamIds: streamId === undefined ? [] : [streamId],
    match: [{ key: conditionKey(), field: '', op: 'equals', value: '' }],
    ciBy: 'nameField',
    ciField: 'host',
    ciTypeId: '',
    ciFixed: null,
    priorityBy: 'value',
    priorityValue: '3',
    priorityField: '',
    priorityMap: '',
    priorityDefault: '4',
    resolveField: 'status',
    resolveValues: 'ok',
    tags: '',
    incidents: '',
    influenceValue: '100',
    maxInfluence: false,
    lateWindowMinutes: '60',
  };
}

export function draftOf(t: Trigger): Draft {
  const p = t.priority;
  return {
    name: t.name,
    description: t.description,
    enabled: t.enabled,
    streamIds: [...t.streamIds],
    match: t.match.map((m) => ({
      key: conditionKey(),
      field: m.field,
      op: m.op,
      value: m.op === 'equals' ? String(m.value) : m.op === 'in' ? m.values.map(String).join(', ') : m.op === 'regex' ? m.pattern : '',
    })),
    ciBy: t.ci.by,
    ciField: t.ci.by === 'fixed' ? '' : t.ci.field,
    ciTypeId: t.ci.by === 'nameField' && t.ci.ciTypeId !== undefined ? String(t.ci.ciTypeId) : '',
    ciFixed: t.ci.by === 'fixed' ? { id: t.ci.id, name: `CI ${t.ci.id}` } : null,
    priorityBy: 'value' in p ? 'value' : 'field',
    priorityValue: 'value' in p ? String(p.value) : '3',
    priorityField: 'field' in p ? p.field : '',
    priorityMap:
      'map' in p
        ? Object.entries(p.map)
            .map(([k, v]) => `${k}=${v}`)
            .join('\n')
        : '',
    priorityDefault: 'default' in p ? String(p.default) : '4',
    resolveField: t.resolve.field,
    resolveValues: t.resolve.values.map(String).join(', '),
    tags: t.tags.map((g) => `${g.id}, ${g.name}, ${g.colorName}`).join('\n'),
    incidents: t.incidents.map((i) => `${i.connector.id}, ${i.connector.name}, ${i.field}, ${i.type}`).join('\n'),
    influenceValue: String(t.influence.value),
    maxInfluence: t.influence.maxInfluence,
    lateWindowMinutes: String(t.lateWindowMinutes ?? 60),
  };
}

/** The body the draft stands for, or the fields that must be fixed first (as the API would name them). */
export function bodyOf(d: Draft): { body: TriggerBody; problem?: undefined } | { body?: undefined; problem: ApiProblem } {
  const errors: Array<{ path: string; message: string }> = [];
  const int = (text: string, path: string, min: number, max: number): number => {
    const n = Number(text.trim());
    if (text.trim() === '' || !Number.isInteger(n) || n < min || n > max) errors.push({ path, message: `must be a whole number from ${min} to ${max}` });
    return n;
  };
  const num = (text: string, path: string, min: number, max: number): number => {
    const n = Number(text.trim());
    if (text.trim() === '' || !Number.isFinite(n) || n < min || n > max) errors.push({ path, message: `must be a number from ${min} to ${max}` });
    return n;
  };
  const match: TriggerBody['match'] = d.match.map((m) =>
    m.op === 'equals'
      ? { field: m.field.trim(), op: 'equals', value: m.value }
      : m.op === 'in'
        ? { field: m.field.trim(), op: 'in', values: list(m.value) }
        : m.op === 'regex'
          ? { field: m.field.trim(), op: 'regex', pattern: m.value }
          : { field: m.field.trim(), op: 'exists' },
  );
  let ci: TriggerBody['ci'];
  if (d.ciBy === 'fixed') {
    if (!d.ciFixed) errors.push({ path: '/ci/id', message: 'choose the CI' });
    ci = { by: 'fixed', id: d.ciFixed?.id ?? 0 };
  } else if (d.ciBy === 'nameField' && d.ciTypeId !== '') ci = { by: 'nameField', field: d.ciField.trim(), ciTypeId: Number(d.ciTypeId) };
  else ci = { by: d.ciBy, field: d.ciField.trim() };
  let priority: TriggerBody['priority'];
  if (d.priorityBy === 'value') priority = { value: int(d.priorityValue, '/priority/value', 1, 4) };
  else {
    const map: Record<string, number> = {};
    lines(d.priorityMap).forEach((line) => {
      const at = line.lastIndexOf('=');
      const n = Number(line.slice(at + 1).trim());
      if (at <= 0 || !Number.isInteger(n) || n < 1 || n > 4) errors.push({ path: '/priority/map', message: `“${line}” is not value=priority (1 to 4)` });
      else map[line.slice(0, at).trim()] = n;
    });
    priority = { field: d.priorityField.trim(), map, default: int(d.priorityDefault, '/priority/default', 1, 4) };
  }
  const tags = lines(d.tags).map((line) => {
    const [id = '', name = '', colorName = ''] = line.split(',').map((p) => p.trim());
    if (!/^\d+$/.test(id) || name === '') errors.push({ path: '/tags', message: `“${line}” is not id, name, colour` });
    return { id: Number(id), name, colorName };
  });
  const incidents = lines(d.incidents).map((line) => {
    const [id = '', name = '', field = '', type = ''] = line.split(',').map((p) => p.trim());
    if (!/^\d+$/.test(id) || name === '' || field === '' || type === '') errors.push({ path: '/incidents', message: `“${line}” is not connector id, connector name, field, type` });
    return { connector: { id: Number(id), name }, field, type };
  });
  const body: TriggerBody = {
    name: d.name.trim(),
    description: d.description.trim(),
    enabled: d.enabled,
    streamIds: d.streamIds,
    match,
    ci,
    priority,
    resolve: { field: d.resolveField.trim(), values: list(d.resolveValues) },
    tags,
    incidents,
    influence: { value: num(d.influenceValue, '/influence/value', 0, 100), maxInfluence: d.maxInfluence },
    lateWindowMinutes: int(d.lateWindowMinutes, '/lateWindowMinutes', 1, 10_080),
  };
  if (errors.length > 0) return { problem: { status: 400, title: 'Some fields need fixing', errors } };
  return { body };
}

/** A dry run's problem with its paths as the save's (`/trigger/name` → `/name`), so one set of fields shows both. */
export function unprefixed(problem: ApiProblem): ApiProblem {
  return problem.errors ? { ...problem, errors: problem.errors.map((e) => ({ ...e, path: e.path.replace(/^\/trigger(?=\/|$)/, '') })) } : problem;
}
