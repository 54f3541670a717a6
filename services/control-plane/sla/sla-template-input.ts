/**
 * Checks a complete SLA template description against the model and turns it into the stored
 * fields (DESIGN §9). Every problem found is reported at once, each with the JSON pointer of the
 * field in the request body, as one 400 validation error.
 */
import type {
  SlaCalendarModel,
  SlaMultiTemplateModel,
  SlaSingleTemplateModel,
  SlaTemplateAdminModel,
  SlaTemplateCreateBody,
  SlaTemplatePatchBody,
} from '../../../schemas/sla-template.schema.js';
import { type FieldError, failFields } from '../../../schemas/errors.js';
import type { PlatformModel } from '../model.js';

/** A whole template before checks: a create body, or a stored template with a patch applied. */
export type SlaTemplateDraft = SlaTemplateCreateBody;

/** The stored fields a draft yields (without id and dates). */
export type SlaTemplateFields = Omit<SlaSingleTemplateModel, 'id' | 'createdAt' | 'updatedAt'> | Omit<SlaMultiTemplateModel, 'id' | 'createdAt' | 'updatedAt'>;

/** References that are looked up: all on create; on PATCH only those the body gives (a CI deleted since stays listed). */
export interface RefChecks {
  configItems: boolean;
  owner: boolean;
  templates: boolean;
}
export const ALL_REFS: RefChecks = { configItems: true, owner: true, templates: true };

const SINGLE_ONLY = ['configItems', 'priorities', 'calendar', 'excludeMaintenance', 'target', 'burnRateAlert'] as const;
const DAY_END = 24 * 60;

/** The draft a PATCH body makes of a stored template (lists, calendar and owner replaced whole). */
export function patchedDraft(current: SlaTemplateAdminModel, patch: SlaTemplatePatchBody): { draft: SlaTemplateDraft; refs: RefChecks } {
  if (patch.type !== undefined && patch.type !== current.type) {
    throw failFields('sla_template.type_fixed', [{ path: '/type', message: `cannot change from ${current.type}; create a new template instead` }]);
  }
  const ownerGiven = patch.ownerType !== undefined || patch.userId !== undefined || patch.workGroupId !== undefined;
  const owner = ownerGiven
    ? { ownerType: patch.ownerType ?? current.ownerType, userId: patch.userId, workGroupId: patch.workGroupId }
    : { ownerType: current.ownerType, userId: current.userId, workGroupId: current.workGroupId };
  const base = {
    name: patch.name ?? current.name,
    description: patch.description ?? current.description,
    period: patch.period ?? current.period,
    timeZone: patch.timeZone ?? current.timeZone,
    ...owner,
  };
  const given = <K extends keyof SlaTemplatePatchBody>(key: K): Partial<Pick<SlaTemplatePatchBody, K>> =>
    patch[key] === undefined ? {} : ({ [key]: patch[key] } as Partial<Pick<SlaTemplatePatchBody, K>>);
  const draft: SlaTemplateDraft =
    current.type === 'Single'
      ? {
          type: 'Single',
          ...base,
          configItems: patch.configItems ?? current.configItems,
          priorities: patch.priorities ?? current.priorities,
          calendar: patch.calendar !== undefined ? patch.calendar : current.calendar,
          excludeMaintenance: patch.excludeMaintenance ?? current.excludeMaintenance,
          target: patch.target !== undefined ? patch.target : current.target,
          burnRateAlert: patch.burnRateAlert !== undefined ? patch.burnRateAlert : (current.burnRateAlert ?? null),
          ...given('templates'),
        }
      : {
          type: 'Multi',
          ...base,
          templates: patch.templates ?? current.templates,
          ...given('configItems'),
          ...given('priorities'),
          ...given('calendar'),
          ...given('excludeMaintenance'),
          ...given('target'),
          ...given('burnRateAlert'),
        };
  return { draft, refs: { configItems: patch.configItems !== undefined, owner: ownerGiven, templates: patch.templates !== undefined } };
}

/** The stored fields of a valid draft, or a validation error listing every problem with its path. */
export function checkTemplate(model: PlatformModel, draft: SlaTemplateDraft, refs: RefChecks): SlaTemplateFields {
  const problems: FieldError[] = [];
  const fail = (path: string, message: string): void => void problems.push({ path, message });

  const owner = checkOwner(model, draft, refs, fail);
  const timeZone = checkTimeZone(draft.timeZone ?? 'UTC', fail);
  const common = { name: draft.name, description: draft.description ?? '', period: draft.period, ...owner, timeZone };

  let fields: SlaTemplateFields;
  if (draft.type === 'Single') {
    if (draft.templates !== undefined) fail('/templates', 'is only for a Multi template');
    if (draft.configItems === undefined) fail('/configItems', 'is required for a Single template');
    fields = {
      type: 'Single',
      ...common,
      configItems: checkConfigItems(model, draft.configItems ?? [], refs.configItems, fail),
      priorities: checkPriorities(draft.priorities ?? [1, 2], fail),
      calendar: draft.calendar ? checkCalendar(draft.calendar, fail) : null,
      excludeMaintenance: draft.excludeMaintenance ?? true,
      target: draft.target ?? null,
      // Stored only when set: absent is no alert (as for templates stored before it existed).
      ...(draft.burnRateAlert == null ? {} : { burnRateAlert: draft.burnRateAlert }),
    };
  } else {
    for (const key of SINGLE_ONLY) if (draft[key] !== undefined) fail(`/${key}`, 'is only for a Single template');
    if (draft.templates === undefined) fail('/templates', 'is required for a Multi template');
    fields = { type: 'Multi', ...common, templates: checkMembers(model, draft.templates ?? [], refs.templates, fail) };
  }
  if (problems.length > 0) throw failFields('sla_template.invalid', problems, { path: problems[0]!.path, reason: problems[0]!.message });
  return fields;
}

type Fail = (path: string, message: string) => void;

function checkOwner(
  model: PlatformModel,
  draft: SlaTemplateDraft,
  refs: RefChecks,
  fail: Fail,
): { ownerType: SlaTemplateDraft['ownerType']; userId: number | null; workGroupId: number | null } {
  const identity = model.slices.identity;
  const userId = draft.userId ?? null;
  const workGroupId = draft.workGroupId ?? null;
  if (draft.ownerType === 'User') {
    if (workGroupId !== null) fail('/workGroupId', 'is only for ownerType WorkGroup');
    if (userId === null) fail('/userId', 'is required when ownerType is User');
    else if (refs.owner && !identity.users.has(userId)) fail('/userId', `user ${userId} does not exist`);
    return { ownerType: 'User', userId, workGroupId: null };
  }
  if (userId !== null) fail('/userId', 'is only for ownerType User');
  if (workGroupId === null) fail('/workGroupId', 'is required when ownerType is WorkGroup');
  else if (refs.owner && !identity.workGroups.has(workGroupId)) fail('/workGroupId', `workgroup ${workGroupId} does not exist`);
  return { ownerType: 'WorkGroup', userId: null, workGroupId };
}

/** A zone Intl knows, stored under its canonical name (`utc` → `UTC`). */
function checkTimeZone(timeZone: string, fail: Fail): string {
  try {
    return new Intl.DateTimeFormat(undefined, { timeZone }).resolvedOptions().timeZone;
  } catch {
    fail('/timeZone', `${JSON.stringify(timeZone)} is not a known IANA time zone`);
    return timeZone;
  }
}

function checkConfigItems(model: PlatformModel, items: NonNullable<SlaTemplateDraft['configItems']>, lookUp: boolean, fail: Fail): SlaSingleTemplateModel['configItems'] {
  const seen = new Set<number>();
  return items.map((item, i) => {
    if (seen.has(item.id)) fail(`/configItems/${i}/id`, `CI ${item.id} is listed twice`);
    else if (lookUp && !model.slices.cmdb.cis.has(item.id)) fail(`/configItems/${i}/id`, `CI ${item.id} does not exist`);
    seen.add(item.id);
    return { id: item.id, weight: item.weight ?? 1, withDescendants: item.withDescendants ?? false };
  });
}

function checkPriorities(priorities: readonly number[], fail: Fail): number[] {
  priorities.forEach((p, i) => {
    if (priorities.indexOf(p) !== i) fail(`/priorities/${i}`, `priority ${p} is listed twice`);
  });
  return [...new Set(priorities)].sort((a, b) => a - b);
}

function checkMembers(model: PlatformModel, members: NonNullable<SlaTemplateDraft['templates']>, lookUp: boolean, fail: Fail): SlaMultiTemplateModel['templates'] {
  const seen = new Set<number>();
  return members.map((member, i) => {
    const path = `/templates/${i}/id`;
    if (seen.has(member.id)) fail(path, `template ${member.id} is listed twice`);
    else if (lookUp) {
      const template = model.slices.slaTemplates.templates.get(member.id);
      if (!template) fail(path, `SLA template ${member.id} does not exist`);
      else if (template.type !== 'Single') fail(path, `SLA template ${member.id} is a Multi template; a Multi template lists Single templates`);
    }
    seen.add(member.id);
    return { id: member.id, weight: member.weight ?? 1 };
  });
}

/** Minutes after midnight of a local `HH:mm`; `24:00` only as the end of a range. */
export function localMinutes(text: string, isEnd: boolean): number | undefined {
  const match = /^(\d{2}):(\d{2})$/.exec(text);
  if (!match) return undefined;
  const hours = Number(match[1]);
  const mins = Number(match[2]);
  if (hours === 24 && mins === 0) return isEnd ? DAY_END : undefined;
  return hours <= 23 && mins <= 59 ? hours * 60 + mins : undefined;
}

/** A real calendar date `YYYY-MM-DD`. */
export function isLocalDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function checkCalendar(calendar: { week: SlaCalendarModel['week']; holidays?: string[] | undefined }, fail: Fail): SlaCalendarModel {
  const ranges: Array<{ day: number; from: number; to: number; index: number }> = [];
  calendar.week.forEach((hours, i) => {
    const from = localMinutes(hours.from, false);
    const to = localMinutes(hours.to, true);
    if (from === undefined) fail(`/calendar/week/${i}/from`, `${JSON.stringify(hours.from)} is not a local time HH:mm from 00:00 to 23:59`);
    if (to === undefined) fail(`/calendar/week/${i}/to`, `${JSON.stringify(hours.to)} is not a local time HH:mm from 00:00 to 24:00`);
    if (from === undefined || to === undefined) return;
    if (from >= to) fail(`/calendar/week/${i}/to`, `must be after from (${hours.from})`);
    else ranges.push({ day: hours.day, from, to, index: i });
  });
  ranges.sort((a, b) => a.day - b.day || a.from - b.from || a.index - b.index);
  // Sorted by start, a range overlaps an earlier one of its day when it starts before the latest end so far.
  let reach: (typeof ranges)[number] | undefined;
  for (const range of ranges) {
    if (reach && reach.day === range.day && range.from < reach.to) {
      fail(`/calendar/week/${Math.max(reach.index, range.index)}`, `overlaps the hours at /calendar/week/${Math.min(reach.index, range.index)} on day ${range.day}`);
    }
    if (!reach || reach.day !== range.day || range.to > reach.to) reach = range;
  }
  const holidays = calendar.holidays ?? [];
  holidays.forEach((date, i) => {
    if (!isLocalDate(date)) fail(`/calendar/holidays/${i}`, `${JSON.stringify(date)} is not a valid date YYYY-MM-DD`);
  });
  return {
    week: ranges.map((r) => calendar.week[r.index]!).map(({ day, from, to }) => ({ day, from, to })),
    holidays: [...new Set(holidays)].sort(),
  };
}
