/**
 * A calendar feed expanded by three parsers as their calendar clients do (issue #37): every
 * occurrence of every event meeting [from, to), in UTC, with RECURRENCE-ID overrides, EXDATEs and
 * RDATEs applied by the parser's own rules.
 *
 * - python-icalendar with dateutil (test/support/ical-expand.py, run by Debian's /usr/bin/python3,
 *   which has both; `python3` on PATH may be another Python);
 * - node-ical: `parseICS`, then `expandRecurringEvent` (its RRULE engine, rrule-temporal, with the
 *   `recurrences` overrides it keys by the instant of each RECURRENCE-ID);
 * - ical.js: `ICAL.Event` over the master with the overrides of its UID (`exceptions`, which it
 *   relates by `relateException`; left to itself it would relate every override of the VCALENDAR,
 *   whatever its UID), `iterator()` and `getOccurrenceDetails`, with the feed's VTIMEZONEs
 *   registered first (ical.js reads zones from the file, the others from their own tz data).
 *
 * Each answers `unmatched`: overrides that name no occurrence the parser generates, which the
 * parser then ignores (so the night is read as the master says).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ICAL from 'ical.js';
import ical from 'node-ical';

export interface ParsedOccurrence {
  start: string;
  end: string;
}

export interface Expansion {
  /** Occurrences by UID, ascending by start, UTC `YYYY-MM-DDTHH:MM:SSZ`. */
  events: Map<string, ParsedOccurrence[]>;
  /** `uid recurrence-id` of overrides matching no occurrence. */
  unmatched: string[];
}

export type Parser = (feed: string, from: number, to: number) => Promise<Expansion>;

export const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./ical-expand.py', import.meta.url));

const utc = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const byStart = (a: ParsedOccurrence, b: ParsedOccurrence): number => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0);

/**
 * Why the python reading cannot run here (Debian's python3 with icalendar and dateutil), or false.
 * Under REQUIRE_SERVICES=1 (CI) a missing tool is an error, never a skip (as services.ts does).
 */
export async function pythonMissing(): Promise<string | false> {
  let reason: string | false = false;
  if (!existsSync(PYTHON)) reason = `${PYTHON} not installed (apt-get install -y python3-icalendar python3-dateutil)`;
  else {
    const probe = await run(PYTHON, ['-c', 'import icalendar, dateutil'], '');
    if (probe.code !== 0) reason = `${PYTHON} lacks icalendar or dateutil (apt-get install -y python3-icalendar python3-dateutil): ${probe.stderr.trim()}`;
  }
  if (reason !== false && process.env['REQUIRE_SERVICES'] === '1') throw new Error(`REQUIRE_SERVICES=1 but ${reason}`);
  return reason;
}

function run(command: string, args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

export const expandWithPython: Parser = async (feed, from, to) => {
  const answer = await run(PYTHON, [SCRIPT, utc(from), utc(to)], feed);
  if (answer.code !== 0) throw new Error(`ical-expand.py exited with ${answer.code}: ${answer.stderr}`);
  const parsed = JSON.parse(answer.stdout) as { events: Record<string, Array<[string, string]>>; unmatched: Array<[string, string]> };
  const events = new Map<string, ParsedOccurrence[]>();
  for (const [uid, list] of Object.entries(parsed.events))
    events.set(
      uid,
      list.map(([start, end]) => ({ start, end })),
    );
  return { events, unmatched: parsed.unmatched.map(([uid, rid]) => `${uid} ${rid}`) };
};

export const expandWithNodeIcal: Parser = async (feed, from, to) => {
  const parsed = ical.sync.parseICS(feed);
  const events = new Map<string, ParsedOccurrence[]>();
  const unmatched: string[] = [];
  for (const component of Object.values(parsed)) {
    if (component?.type !== 'VEVENT') continue;
    const event = component as ical.VEvent;
    // expandOngoing: an occurrence that began before `from` and is still running counts, as for the others.
    const instances = ical.expandRecurringEvent(event, { from: new Date(from), to: new Date(to - 1), expandOngoing: true });
    const list = instances.filter((i) => i.end.getTime() > from && i.start.getTime() < to).map((i) => ({ start: utc(i.start.getTime()), end: utc(i.end.getTime()) }));
    events.set(String(event.uid), list.sort(byStart));
    // An override is used when the RRULE generates the instant it is keyed by.
    const overrides = new Set(Object.values(event.recurrences ?? {}));
    const used = new Set<object>(instances.filter((i) => i.isOverride).map((i) => i.event));
    for (const o of overrides) {
      const at = (o.recurrenceid as Date | undefined)?.getTime();
      if (!used.has(o) && at !== undefined && at >= from - 2 * 86_400_000 && at < to) unmatched.push(`${event.uid} ${utc(at)}`);
    }
  }
  return { events, unmatched };
};

export const expandWithIcalJs: Parser = async (feed, from, to) => {
  const calendar = new ICAL.Component(ICAL.parse(feed) as unknown[]);
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  try {
    const events = new Map<string, ParsedOccurrence[]>();
    const unmatched: string[] = [];
    const vevents = calendar.getAllSubcomponents('vevent');
    for (const component of vevents) {
      if (component.hasProperty('recurrence-id')) continue;
      const uid = component.getFirstPropertyValue('uid');
      const exceptions = vevents.filter((c) => c.hasProperty('recurrence-id') && c.getFirstPropertyValue('uid') === uid);
      const event = new ICAL.Event(component, { exceptions, strictExceptions: true });
      const used = new Set<string>();
      const list: ParsedOccurrence[] = [];
      const iterator = event.iterator();
      for (let next = iterator.next(); next; next = iterator.next()) {
        if (next.toUnixTime() * 1000 >= to) break;
        const details = event.getOccurrenceDetails(next);
        if (details.item !== event) used.add(details.item.recurrenceId.toString());
        const start = details.startDate.toUnixTime() * 1000;
        const end = details.endDate.toUnixTime() * 1000;
        if (end > from && start < to) list.push({ start: utc(start), end: utc(end) });
        if (!event.isRecurring()) break;
      }
      events.set(event.uid, list.sort(byStart));
      for (const [id, exception] of Object.entries(event.exceptions)) {
        const at = exception.recurrenceId.toUnixTime() * 1000;
        if (!used.has(exception.recurrenceId.toString()) && at >= from - 2 * 86_400_000 && at < to) unmatched.push(`${event.uid} ${id}`);
      }
    }
    return { events, unmatched };
  } finally {
    for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.remove(String(zone.getFirstPropertyValue('tzid')));
  }
};

export const PARSERS: ReadonlyArray<{ name: string; expand: Parser }> = [
  { name: 'python-icalendar + dateutil', expand: expandWithPython },
  { name: 'node-ical', expand: expandWithNodeIcal },
  { name: 'ical.js', expand: expandWithIcalJs },
];
