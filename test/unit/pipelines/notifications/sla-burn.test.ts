/**
 * Issue #31, SLA burn events (pipelines/notifications/sla-burn.ts): worked timelines of the 1 h
 * burn rate of (template 1, CI 7) against its threshold 14.4. Each row: the time, the rate read
 * then (null: no reading), and the events that come out.
 */
import type { Test } from 'tap';
import t from 'tap';
import { Compile } from 'typebox/compile';
import { type BurningSeen, type BurnReading, burnTransitions, REARM_RATIO } from '../../../../pipelines/notifications/sla-burn.js';
import { NotificationEvent } from '../../../../schemas/notification-events.schema.js';

const at = (hhmm: string): number => Date.parse(`2026-11-02T${hhmm}:00.000Z`);
const THRESHOLD = 14.4;

const reading = (burnRate: number, extra: Partial<BurnReading> = {}): BurnReading => ({
  template: { id: 1, name: 'Billing' },
  configItem: { id: 7, name: 'db-1' },
  burnRate,
  threshold: THRESHOLD,
  budgetLeft: 0.8,
  ...extra,
});

type Out = ReturnType<typeof burnTransitions>['events'][number];
const label = (e: Out): string => (e.kind === 'sla.budget_burning' ? `burning ${e.template.id}/${e.configItem.id} at ${e.burnRate}` : e.kind);

function timeline(t: Test, rows: Array<[time: string, rate: number | null, out: string[]]>, seen: BurningSeen = {}): BurningSeen {
  for (const [time, rate, out] of rows) {
    const step = burnTransitions(seen, rate === null ? [] : [reading(rate)], at(time));
    t.same(step.events.map(label), out, `${time}: ${rate}`);
    seen = step.seen;
  }
  return seen;
}

t.test('reaching the threshold (≥): one sla.budget_burning; nothing more while it stays at or above', async (t) => {
  const seen = timeline(t, [
    ['08:00', 2, []],
    ['08:01', 14.4, ['burning 1/7 at 14.4']],
    ['08:02', 30, []],
    ['08:03', 14.4, []],
  ]);
  t.same(seen, { '1:7': { since: at('08:01') } });
});

t.test(`hysteresis: still burning until below ${REARM_RATIO * 100} % of the threshold, then re-armed`, async (t) => {
  timeline(t, [
    ['08:00', 15, ['burning 1/7 at 15']],
    ['08:01', 14.3, []], // below the threshold, not below 90 %: still burning
    ['08:02', 14.5, []], // wavering: told once
    ['08:03', 13, []], // 90 % of 14.4 is 12.96
    ['08:04', 12.95, []], // below: re-armed
    ['08:05', 14, []],
    ['08:06', 14.4, ['burning 1/7 at 14.4']],
  ]);
});

t.test('a pair without a reading is not burning: forgotten, and tells again when it burns again', async (t) => {
  timeline(t, [
    ['08:00', 20, ['burning 1/7 at 20']],
    ['08:10', null, []],
    ['08:20', 20, ['burning 1/7 at 20']],
  ]);
});

t.test('the event: deterministic id from (template, CI, since), time = now, every field of the schema, budgetLeft clipped to 0–1', async (t) => {
  const step = burnTransitions({}, [reading(16.2, { budgetLeft: -0.25 })], at('08:01'));
  t.same(step.events, [
    {
      id: `sla-1-7-${at('08:01')}`,
      time: '2026-11-02T08:01:00.000Z',
      kind: 'sla.budget_burning',
      template: { id: 1, name: 'Billing' },
      configItem: { id: 7, name: 'db-1' },
      burnRate: 16.2,
      threshold: 14.4,
      budgetLeft: 0,
    },
  ]);
  const check = Compile(NotificationEvent);
  t.same([...check.Errors(step.events[0])], [], 'matches NotificationEvent');
  const restored = JSON.parse(JSON.stringify(step.seen)) as BurningSeen;
  t.same(restored, step.seen, 'seen is plain JSON data');
  t.same(burnTransitions(restored, [reading(16.2)], at('08:02')).events, [], 'after a restart from the saved state: nothing again');
});

t.test('pairs are independent, and their events come in (template id, CI id) order', async (t) => {
  const readings = [
    reading(20, { template: { id: 2, name: 'Core' } }),
    reading(20, { configItem: { id: 9, name: 'web-1' } }),
    reading(20),
    reading(5, { configItem: { id: 8, name: 'db-2' } }),
  ];
  const step = burnTransitions({}, readings, at('08:00'));
  t.same(step.events.map(label), ['burning 1/7 at 20', 'burning 1/9 at 20', 'burning 2/7 at 20']);
  t.same(Object.keys(step.seen).sort(), ['1:7', '1:9', '2:7']);
});

t.test('the threshold is the reading’s: a threshold changed while burning is judged at once', async (t) => {
  let seen = burnTransitions({}, [reading(15)], at('08:00')).seen;
  seen = burnTransitions(seen, [reading(15, { threshold: 20 })], at('08:01')).seen; // 15 < 18 (90 % of 20): re-armed
  t.same(seen, {});
  t.same(burnTransitions(seen, [reading(21, { threshold: 20 })], at('08:02')).events.map(label), ['burning 1/7 at 21']);
});

t.test('a rate that is not a number never burns', async (t) => {
  t.same(burnTransitions({}, [reading(Number.NaN)], at('08:00')).events, []);
});

t.test('seen is the same object when nothing changed, a new one otherwise', async (t) => {
  const seen = burnTransitions({}, [reading(20)], at('08:00')).seen;
  t.equal(burnTransitions(seen, [reading(19)], at('08:01')).seen, seen);
  t.not(burnTransitions(seen, [reading(1)], at('08:02')).seen, seen);
  const quiet: BurningSeen = {};
  t.equal(burnTransitions(quiet, [reading(1)], at('08:03')).seen, quiet);
});
