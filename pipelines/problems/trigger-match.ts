/**
 * From an event to a trigger hit (DESIGN §7): does the record match the trigger's conditions,
 * which CI does it name, does it resolve, with which priority and incidents. Pure: the CI
 * lookups are passed in. A trigger is compiled once (regexes, maps) and applied to many events.
 * Regex conditions use RE2 semantics in linear time on a bounded prefix (records/linear-pattern.ts).
 */
import type { CiLocatorModel, ConditionModel, TriggerModel } from '../../schemas/trigger.schema.js';
import { compileLinearPattern } from '../records/linear-pattern.js';
import type { Hit, IncidentRef, PriorityNumber } from './problem-timeline.js';
import type { TriggeredEvent } from '../records/record-pipeline.js';

/** An event with its fields, as the record pipeline hands it over. */
export interface CiLookup {
  exists(id: number): boolean;
  /** The CI of that name (and type, when given); undefined when none or ambiguous. */
  byName(name: string, typeId?: number): number | undefined;
}

export interface KeyedHit {
  triggerId: number;
  ciId: number;
  hit: Hit;
}

export interface CompiledTrigger {
  id: number;
  streamIds: readonly number[];
  /** The hit of this event, or undefined when the event does not match or names no known CI. */
  hitOf(event: TriggeredEvent, cis: CiLookup): KeyedHit | undefined;
  /** The record's fields meet every condition (whether or not they name a known CI). */
  matches(fields: unknown): boolean;
}

type FieldReader = (fields: unknown) => unknown;

/** Reads the value at a dotted path; compiled once per trigger, as it runs for every event. */
export function fieldReader(path: string): FieldReader {
  const keys = path.split('.');
  const step = (current: unknown, key: string): unknown => (current === null || typeof current !== 'object' ? undefined : (current as Record<string, unknown>)[key]);
  if (keys.length === 1) return (fields) => step(fields, keys[0]!);
  return (fields) => {
    let current = fields;
    for (const key of keys) current = step(current, key);
    return current;
  };
}

export const valueAt = (fields: unknown, path: string): unknown => fieldReader(path)(fields);

type Scalar = string | number | boolean;

/** Record values compare with rule values as text too: `"5"` in a record equals 5 in a rule. */
const sameValue = (found: unknown, wanted: Scalar): boolean =>
  found === wanted || ((typeof found === 'string' || typeof found === 'number' || typeof found === 'boolean') && String(found) === String(wanted));

const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

function compileCondition(condition: ConditionModel): (fields: unknown) => boolean {
  const read = fieldReader(condition.field);
  switch (condition.op) {
    case 'equals':
      return (fields) => sameValue(read(fields), condition.value);
    case 'in':
      return (fields) => {
        const found = read(fields);
        return condition.values.some((v) => sameValue(found, v));
      };
    case 'regex': {
      // Linear time, on a bounded prefix of the value (linear-pattern.ts). A pattern saved before
      // RE2 was the engine and that RE2 refuses never matches.
      const compiled = compileLinearPattern(condition.pattern);
      if (!compiled.ok) return () => false;
      const pattern = compiled.pattern;
      return (fields) => {
        const found = read(fields);
        return isScalar(found) && pattern.test(String(found));
      };
    }
    case 'exists':
      return (fields) => {
        const found = read(fields);
        return found !== undefined && found !== null;
      };
  }
}

function compileLocator(locator: CiLocatorModel): (fields: unknown, cis: CiLookup) => number | undefined {
  switch (locator.by) {
    case 'fixed':
      return (_fields, cis) => (cis.exists(locator.id) ? locator.id : undefined);
    case 'idField': {
      const read = fieldReader(locator.field);
      return (fields, cis) => {
        const found = read(fields);
        const id = typeof found === 'number' ? found : typeof found === 'string' && /^\d+$/.test(found) ? Number(found) : NaN;
        return Number.isSafeInteger(id) && cis.exists(id) ? id : undefined;
      };
    }
    case 'nameField': {
      const read = fieldReader(locator.field);
      return (fields, cis) => {
        const found = read(fields);
        return isScalar(found) ? cis.byName(String(found), locator.ciTypeId) : undefined;
      };
    }
  }
}

export function compileTrigger(trigger: TriggerModel): CompiledTrigger {
  const conditions = trigger.match.map(compileCondition);
  const locate = compileLocator(trigger.ci);
  const rule = trigger.priority;
  const readPriority = 'field' in rule ? fieldReader(rule.field) : undefined;
  const priorityOf = (fields: unknown): PriorityNumber => {
    if ('value' in rule) return rule.value as PriorityNumber;
    const found = readPriority!(fields);
    const key = isScalar(found) ? String(found) : undefined;
    // Own keys only: a value such as "constructor" must not find Object.prototype members.
    return (key !== undefined && Object.hasOwn(rule.map, key) ? rule.map[key] : rule.default) as PriorityNumber;
  };
  const readResolve = fieldReader(trigger.resolve.field);
  const resolves = (fields: unknown): boolean => {
    const found = readResolve(fields);
    return trigger.resolve.values.some((v) => sameValue(found, v));
  };
  const incidentRules = trigger.incidents.map((rule) => ({ rule, read: fieldReader(rule.field) }));
  const incidentsOf = (fields: unknown): IncidentRef[] => {
    const refs: IncidentRef[] = [];
    for (const { rule, read } of incidentRules) {
      const found = read(fields);
      if (isScalar(found) && String(found) !== '') refs.push({ connectorId: rule.connector.id, connectorName: rule.connector.name, id: String(found), type: rule.type });
    }
    return refs;
  };
  return {
    id: trigger.id,
    streamIds: trigger.streamIds,
    matches: (fields) => conditions.every((holds) => holds(fields)),
    hitOf(event, cis) {
      for (const holds of conditions) if (!holds(event.fields)) return undefined;
      const ciId = locate(event.fields, cis);
      if (ciId === undefined) return undefined;
      const resolve = resolves(event.fields);
      return {
        triggerId: trigger.id,
        ciId,
        hit: { id: event.id, ts: event.ts, resolve, priority: priorityOf(event.fields), incidents: resolve ? [] : incidentsOf(event.fields) },
      };
    },
  };
}
