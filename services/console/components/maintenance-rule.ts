/**
 * The rule builder's model: the common recurrences (every n days; every n weeks on some
 * weekdays; every n months on a day of the month or on the n-th / last weekday; ending never,
 * after a count or on a date) and their RRULE text. A rule the builder cannot hold (BYSETPOS,
 * WKST, several ordinals…) stays raw text: builderOf answers null for it.
 */
export type Freq = 'DAILY' | 'WEEKLY' | 'MONTHLY';

export interface Built {
  freq: Freq;
  interval: number;
  /** WEEKLY: weekday codes, MO..SU. */
  weekdays: string[];
  /** MONTHLY: on a day of the month, or on the n-th (−1: last) weekday. */
  monthly: { kind: 'day'; day: number } | { kind: 'weekday'; ordinal: number; weekday: string };
  ends: { kind: 'never' } | { kind: 'count'; count: number } | { kind: 'until'; date: string };
}

export const WEEKDAY_CODES = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export const WEEKDAY_NAMES: Record<string, string> = { MO: 'Monday', TU: 'Tuesday', WE: 'Wednesday', TH: 'Thursday', FR: 'Friday', SA: 'Saturday', SU: 'Sunday' };

/** The builder's defaults for a start date (YYYY-MM-DD): weekly on its weekday. */
export function defaultBuilt(startDate: string): Built {
  const d = /^\d{4}-\d{2}-\d{2}$/.test(startDate) ? new Date(`${startDate}T00:00:00Z`) : new Date();
  const code = WEEKDAY_CODES[(d.getUTCDay() + 6) % 7]!;
  return { freq: 'WEEKLY', interval: 1, weekdays: [code], monthly: { kind: 'day', day: d.getUTCDate() }, ends: { kind: 'never' } };
}

/** The n-th weekday of the month `startDate` falls on (−1 when it is the last one). */
export function ordinalOf(startDate: string): { ordinal: number; weekday: string } {
  const d = new Date(`${startDate}T00:00:00Z`);
  const dom = d.getUTCDate();
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  return { ordinal: dom + 7 > last ? -1 : Math.ceil(dom / 7), weekday: WEEKDAY_CODES[(d.getUTCDay() + 6) % 7]! };
}

export function ruleText(b: Built): string {
  const parts = [`FREQ=${b.freq}`];
  if (b.interval > 1) parts.push(`INTERVAL=${b.interval}`);
  if (b.freq === 'WEEKLY' && b.weekdays.length > 0) parts.push(`BYDAY=${WEEKDAY_CODES.filter((c) => b.weekdays.includes(c)).join(',')}`);
  if (b.freq === 'MONTHLY') parts.push(b.monthly.kind === 'day' ? `BYMONTHDAY=${b.monthly.day}` : `BYDAY=${b.monthly.ordinal}${b.monthly.weekday}`);
  if (b.ends.kind === 'count') parts.push(`COUNT=${b.ends.count}`);
  if (b.ends.kind === 'until') parts.push(`UNTIL=${b.ends.date.replaceAll('-', '')}`);
  return parts.join(';');
}

/** The builder's form of a rule, or null when only the text can say it. */
export function builderOf(rule: string, startDate: string): Built | null {
  const fields = new Map<string, string>();
  for (const part of rule
    .trim()
    .replace(/^RRULE:/i, '')
    .split(';')) {
    if (part === '') continue;
    const at = part.indexOf('=');
    if (at < 0) return null;
    fields.set(part.slice(0, at).toUpperCase(), part.slice(at + 1).toUpperCase());
  }
  const freq = fields.get('FREQ');
  if (freq !== 'DAILY' && freq !== 'WEEKLY' && freq !== 'MONTHLY') return null;
  for (const key of fields.keys()) if (!['FREQ', 'INTERVAL', 'BYDAY', 'BYMONTHDAY', 'COUNT', 'UNTIL'].includes(key)) return null;
  const b = defaultBuilt(startDate);
  b.freq = freq;
  const interval = fields.get('INTERVAL');
  if (interval !== undefined) {
    if (!/^\d{1,2}$/.test(interval)) return null;
    b.interval = Number(interval);
  }
  const byDay = fields.get('BYDAY');
  const byMonthDay = fields.get('BYMONTHDAY');
  if (freq === 'DAILY' && (byDay !== undefined || byMonthDay !== undefined)) return null;
  if (freq === 'WEEKLY') {
    if (byMonthDay !== undefined) return null;
    if (byDay !== undefined) {
      const days = byDay.split(',');
      if (!days.every((d) => (WEEKDAY_CODES as readonly string[]).includes(d))) return null;
      b.weekdays = days;
    }
  }
  if (freq === 'MONTHLY') {
    if (byDay !== undefined && byMonthDay !== undefined) return null;
    if (byMonthDay !== undefined) {
      if (!/^\d{1,2}$/.test(byMonthDay)) return null;
      b.monthly = { kind: 'day', day: Number(byMonthDay) };
    } else if (byDay !== undefined) {
      const m = /^(-1|[1-4])(MO|TU|WE|TH|FR|SA|SU)$/.exec(byDay);
      if (!m) return null;
      b.monthly = { kind: 'weekday', ordinal: Number(m[1]), weekday: m[2]! };
    }
  }
  const count = fields.get('COUNT');
  const until = fields.get('UNTIL');
  if (count !== undefined && until !== undefined) return null;
  if (count !== undefined) {
    if (!/^\d{1,4}$/.test(count)) return null;
    b.ends = { kind: 'count', count: Number(count) };
  }
  if (until !== undefined) {
    const m = /^(\d{4})(\d{2})(\d{2})$/.exec(until);
    if (!m) return null;
    b.ends = { kind: 'until', date: `${m[1]}-${m[2]}-${m[3]}` };
  }
  return b;
}
