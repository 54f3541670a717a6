/**
 * Issue #31, maintenance events (pipelines/notifications/maintenance-transitions.ts): worked
 * timelines of the windows active at each tick. Each row: the time, the windows active then, and
 * the events that come out (`started 1@08:00 [7,8]`: mode 1's window starting 08:00, naming CIs
 * 7 and 8).
 */
import type { Test } from 'tap';
import t from 'tap';
import { Compile } from 'typebox/compile';
import { type ActiveWindow, coveringOf, type MaintenanceSeen, maintenanceTransitions } from '../../../../pipelines/notifications/maintenance-transitions.js';
import { NotificationEvent } from '../../../../schemas/notification-events.schema.js';

const at = (hhmm: string): number => Date.parse(`2026-11-02T${hhmm}:00.000Z`);
const hhmm = (iso: string): string => iso.slice(11, 16);
const CI_NAMES: Record<number, string> = { 7: 'db-1', 8: 'db-2', 9: 'web-1' };
const ci = (id: number) => ({ id, name: CI_NAMES[id] ?? `ci-${id}` });

/** Mode `id`'s window [from, to) on `cis`. */
const win = (id: number, from: string, to: string, cis: number[], title = `mode ${id}`): ActiveWindow => ({
  maintenanceId: id,
  title,
  windowStart: at(from),
  windowEnd: at(to),
  configItems: cis.map(ci),
});

type Out = ReturnType<typeof maintenanceTransitions>['events'][number];
const label = (e: Out): string => {
  if (e.kind !== 'maintenance.started' && e.kind !== 'maintenance.ended') return e.kind;
  const m = e.maintenance;
  return `${e.kind.slice('maintenance.'.length)} ${m.id}@${hhmm(m.windowStart)} [${m.configItems.map((c) => c.id).join(',')}]`;
};

/** Runs the ticks from `seen`, checks each row's events, answers the last state. */
function timeline(t: Test, rows: Array<[time: string, active: ActiveWindow[], out: string[]]>, seen: MaintenanceSeen = {}): MaintenanceSeen {
  for (const [time, active, out] of rows) {
    const step = maintenanceTransitions(seen, active, at(time));
    t.same(step.events.map(label), out, time);
    seen = step.seen;
  }
  return seen;
}

t.test('a window newly active: maintenance.started with its CIs, once; gone: maintenance.ended, the window as seen', async (t) => {
  const w = win(1, '08:00', '09:00', [7, 8]);
  const seen = timeline(t, [
    ['07:59', [], []],
    ['08:00', [w], ['started 1@08:00 [7,8]']],
    ['08:30', [w], []],
    ['09:00', [], ['ended 1@08:00 [7,8]']],
    ['09:01', [], []],
  ]);
  t.same(seen, {});
});

t.test('events carry every field the schema requires: ids from the window, time = now, the window in ISO', async (t) => {
  const started = maintenanceTransitions({}, [win(1, '08:00', '09:00', [7], 'DB upgrade')], at('08:00'));
  t.same(started.events, [
    {
      id: `maintenance-1-${at('08:00')}-started`,
      time: '2026-11-02T08:00:00.000Z',
      kind: 'maintenance.started',
      maintenance: { id: 1, title: 'DB upgrade', windowStart: '2026-11-02T08:00:00.000Z', windowEnd: '2026-11-02T09:00:00.000Z', configItems: [{ id: 7, name: 'db-1' }] },
    },
  ]);
  const ended = maintenanceTransitions(started.seen, [], at('08:40'));
  t.same(ended.events, [
    {
      id: `maintenance-1-${at('08:00')}-ended`,
      time: '2026-11-02T08:40:00.000Z',
      kind: 'maintenance.ended',
      maintenance: { id: 1, title: 'DB upgrade', windowStart: '2026-11-02T08:00:00.000Z', windowEnd: '2026-11-02T09:00:00.000Z', configItems: [{ id: 7, name: 'db-1' }] },
    },
  ]);
  const check = Compile(NotificationEvent);
  for (const e of [...started.events, ...ended.events]) t.same([...check.Errors(e)], [], `${e.kind} matches NotificationEvent`);
});

t.test('deterministic ids: the same window gives the same id from any state, after a restart from nothing or from the saved state', async (t) => {
  const w = win(3, '08:00', '09:00', [7]);
  const first = maintenanceTransitions({}, [w], at('08:00'));
  const otherProcess = maintenanceTransitions({}, [w], at('08:00'));
  t.same(otherProcess.events, first.events, 'another dispatcher: the same events');
  const restored = JSON.parse(JSON.stringify(first.seen)) as MaintenanceSeen;
  t.same(restored, first.seen, 'seen is plain JSON data');
  t.same(maintenanceTransitions(restored, [w], at('08:30')).events, [], 'restarted from the saved state: nothing again');
  t.same(maintenanceTransitions(restored, [], at('09:00')).events[0]!.id, `maintenance-3-${at('08:00')}-ended`);
});

t.test('recurring modes: each occurrence is a window; touching occurrences end then start', async (t) => {
  // Mode 2 recurs hourly for 30 minutes; mode 4 every hour for the whole hour (occurrences touch).
  timeline(t, [
    ['08:00', [win(2, '08:00', '08:30', [7]), win(4, '08:00', '09:00', [9])], ['started 2@08:00 [7]', 'started 4@08:00 [9]']],
    ['08:30', [win(4, '08:00', '09:00', [9])], ['ended 2@08:00 [7]']],
    ['09:00', [win(2, '09:00', '09:30', [7]), win(4, '09:00', '10:00', [9])], ['ended 4@08:00 [9]', 'started 2@09:00 [7]', 'started 4@09:00 [9]']],
  ]);
});

t.test('order: every ended before every started, each by maintenance id then window start', async (t) => {
  const seen = maintenanceTransitions({}, [win(5, '07:00', '10:00', [7]), win(2, '07:00', '10:00', [8])], at('08:00')).seen;
  const step = maintenanceTransitions(seen, [win(6, '08:10', '09:00', [9]), win(1, '08:10', '09:00', [9])], at('08:10'));
  t.same(step.events.map(label), ['ended 2@07:00 [8]', 'ended 5@07:00 [7]', 'started 1@08:10 [9]', 'started 6@08:10 [9]']);
});

t.test('a window whose start moved is another window: the old one ends, the new one starts', async (t) => {
  timeline(t, [
    ['08:00', [win(1, '08:00', '09:00', [7])], ['started 1@08:00 [7]']],
    ['08:20', [win(1, '08:15', '09:00', [7])], ['ended 1@08:00 [7]', 'started 1@08:15 [7]']],
  ]);
});

t.test('deleted or completed early: ended at once, the window as last seen', async (t) => {
  const seen = timeline(t, [['08:00', [win(1, '08:00', '12:00', [7])], ['started 1@08:00 [7]']]]);
  const ended = maintenanceTransitions(seen, [], at('08:45'));
  t.same(ended.events.map(label), ['ended 1@08:00 [7]']);
  t.equal(ended.events[0]!.time, '2026-11-02T08:45:00.000Z', 'time: when it was seen gone');
});

t.test('end or title changed while running: the same window, nothing sent; the ended event tells them as last seen', async (t) => {
  const seen = timeline(t, [
    ['08:00', [win(1, '08:00', '09:00', [7], 'patching')], ['started 1@08:00 [7]']],
    ['08:30', [win(1, '08:00', '10:00', [7], 'patching (extended)')], []],
  ]);
  const ended = maintenanceTransitions(seen, [], at('10:00')).events[0]!;
  t.match(ended, { kind: 'maintenance.ended', maintenance: { title: 'patching (extended)', windowEnd: '2026-11-02T10:00:00.000Z' } });
});

t.test('CIs added or removed while running: started naming only those added, ended naming only those removed; a rename is no change', async (t) => {
  const seen = timeline(t, [
    ['08:00', [win(1, '08:00', '09:00', [7, 8])], ['started 1@08:00 [7,8]']],
    ['08:10', [win(1, '08:00', '09:00', [7, 8, 9])], ['started 1@08:00 [9]']],
    ['08:20', [win(1, '08:00', '09:00', [9])], ['ended 1@08:00 [7,8]']],
    ['08:25', [{ ...win(1, '08:00', '09:00', [9]), configItems: [{ id: 9, name: 'web-1-renamed' }] }], []],
    ['09:00', [], ['ended 1@08:00 [9]']],
  ]);
  t.same(seen, {});
  const base = maintenanceTransitions({}, [win(1, '08:00', '09:00', [7])], at('08:00')).seen;
  const added = maintenanceTransitions(base, [win(1, '08:00', '09:00', [7, 9])], at('08:10')).events[0]!;
  t.match(added.id, new RegExp(`^maintenance-1-${at('08:00')}-started-[0-9a-f]{12}$`), 'its own id, from the CIs added');
  t.not(added.id, `maintenance-1-${at('08:00')}-started`);
  t.same(maintenanceTransitions(base, [win(1, '08:00', '09:00', [7, 9])], at('08:11')).events[0]!.id, added.id, 'the same change: the same id');
});

t.test('seen is the same object when nothing changed, a new one otherwise', async (t) => {
  const w = win(1, '08:00', '09:00', [7]);
  const seen = maintenanceTransitions({}, [w], at('08:00')).seen;
  t.equal(maintenanceTransitions(seen, [w], at('08:01')).seen, seen);
  t.equal(maintenanceTransitions(seen, [{ ...w, configItems: [ci(7)] }], at('08:02')).seen, seen, 'equal windows from a new read');
  t.not(maintenanceTransitions(seen, [{ ...w, title: 'x' }], at('08:03')).seen, seen);
});

t.test('coveringOf: the CIs of the seen windows with their modes, for emptyRoute on a start without saved state', async (t) => {
  const seen = maintenanceTransitions({}, [win(2, '08:00', '09:00', [7, 8]), win(1, '07:00', '10:00', [8])], at('08:00')).seen;
  t.same(coveringOf(seen), { 7: [2], 8: [1, 2] });
  t.same(coveringOf({}), {});
});
