/**
 * Issue #17: maintenance modes as calendar events (calendar-events.ts), and a recurring series
 * completed early read back by ical.js from the rendered file: it stops where the mode stopped.
 */
import ICAL from 'ical.js';
import t from 'tap';
import { renderCalendar } from '../../../../../pipelines/maintenance/calendar-ics.js';
import { calendarEventOf, effectiveRule } from '../../../../../services/control-plane/maintenance/calendar-events.js';
import type { MaintenanceRecord } from '../../../../../services/control-plane/maintenance/maintenance.types.js';
import { H, modeRecord, T0 } from '../../../../support/model-fixture.js';

const CREATED = '2026-10-01T08:00:00.000Z';
const UPDATED = '2026-10-02T09:30:00.000Z';
const base = { createdAt: CREATED, updatedAt: UPDATED };

t.test('a one-off mode: its times, a UID stable for the mode, the title or a stand-in, its scope and labels', async (t) => {
  const mode = modeRecord(
    7,
    T0,
    T0 + 4 * H,
    [{ ciId: 11 }, { ciId: 12, scope: 'CiAndChildren', depth: -1 }, { ciId: 13, scope: 'CiAndChildren', depth: 1, start: T0 + H }, { ciId: 14, end: T0 + 2 * H }],
    { ...base, labels: { change: 'CHG-1' } },
  );
  t.same(calendarEventOf(mode), {
    uid: `maintenance-7@${Date.parse(CREATED)}.opsplatform`,
    title: 'mode 7',
    description: [
      'Maintenance mode 7',
      'CIs in scope:',
      '- CI 11',
      '- CI 12 and its descendants (all levels)',
      '- CI 13 and its descendants (1 level) from 2026-11-01T01:00:00.000Z',
      '- CI 14 until 2026-11-01T02:00:00.000Z',
      'Labels:',
      '- change: CHG-1',
    ].join('\n'),
    start: T0,
    end: T0 + 4 * H,
    updatedAt: Date.parse(UPDATED),
  });
  const edited = calendarEventOf({ ...mode, title: null, updatedAt: '2026-10-05T00:00:00.000Z' });
  t.equal(edited.uid, calendarEventOf(mode).uid, 'an edit keeps the UID');
  t.equal(edited.title, 'Maintenance 7');
  t.equal(calendarEventOf(modeRecord(8, T0, T0 + H, [{ ciId: 1 }], { ...base, canceledAt: T0 - H })).canceled, true);
});

const weekly = (extra: Partial<MaintenanceRecord>): MaintenanceRecord =>
  modeRecord(9, T0, T0 + 2 * H, [{ ciId: 1, end: T0 + 30 * 24 * H }], {
    ...base,
    recurrence: { rule: 'FREQ=WEEKLY;COUNT=10', timeZone: 'Europe/Berlin', exdates: ['2026-11-08'], seriesEnd: T0 + 63 * 24 * H + 2 * H },
    ...extra,
  });

t.test('a recurring mode carries its rule, zone and exdates as they are', async (t) => {
  t.same(calendarEventOf(weekly({})).recurrence, { rule: 'FREQ=WEEKLY;COUNT=10', timeZone: 'Europe/Berlin', exdates: ['2026-11-08'] });
});

t.test('a series completed early: COUNT becomes an UNTIL that keeps the occurrences begun before the end', async (t) => {
  const stoppedAt = T0 + 14 * 24 * H + H; // during the third occurrence
  const mode = weekly({ completedAt: stoppedAt, recurrence: { ...weekly({}).recurrence!, seriesEnd: stoppedAt } });
  t.equal(effectiveRule(mode), 'FREQ=WEEKLY;UNTIL=20261115T005959Z');
  t.equal(
    effectiveRule(weekly({ completedAt: T0, recurrence: { ...weekly({}).recurrence!, seriesEnd: T0 } })),
    'FREQ=WEEKLY;UNTIL=20261101T000000Z',
    'never before the first start',
  );

  const file = renderCalendar([calendarEventOf(mode)], { name: 'Maintenance', now: stoppedAt });
  const calendar = new ICAL.Component(ICAL.parse(file) as unknown[]);
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
  const starts: string[] = [];
  const iterator = event.iterator();
  for (let next = iterator.next(); next && starts.length < 20; next = iterator.next()) starts.push(next.toJSDate().toISOString());
  t.same(starts, ['2026-11-01T00:00:00.000Z', '2026-11-15T00:00:00.000Z'], 'the first, then the one running when it stopped (8 November excluded), none after');
});
