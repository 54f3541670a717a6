/** A Multi template's report (spec 2.16): Single templates combined by template weight. */
import t from 'tap';
import { calculateMulti, roundParts } from '../../../../pipelines/sla/multi-template.js';
import type { SlaFigures } from '../../../../pipelines/sla/sla.types.js';
import { H } from './sla-fixture.js';

const a: SlaFigures = {
  okMs: 18 * H,
  problemMs: 2 * H,
  unattendedMs: 3 * H,
  maintenanceMs: H,
  attendedMs: 21 * H,
  serviceAvailability: 90,
  maxDowntimeMs: 1.5 * H,
  counts: [1, 2, 0, 0],
  eventsCount: 3,
};
const b: SlaFigures = {
  okMs: 10 * H,
  problemMs: 10 * H,
  unattendedMs: 4 * H,
  maintenanceMs: 0,
  attendedMs: 20 * H,
  serviceAvailability: 50,
  maxDowntimeMs: 5 * H,
  counts: [0, 1, 1, 0],
  eventsCount: 2,
};

t.test('Multi weights: influence = weight / Σ weights, availability = Σ weight × availability / Σ weights', async (t) => {
  t.strictSame(
    calculateMulti([
      { name: 'A', weight: 3, figures: a },
      { name: 'B', weight: 1, figures: b },
    ]),
    {
      serviceAvailability: 80, // (3 × 90 + 1 × 50) / 4
      templateRows: [
        {
          name: 'A',
          weight: 3,
          influence: 0.75,
          serviceAvailability: 90,
          okTime: 18 * H,
          problemTimePercent: (2 / 24) * 100,
          problemTime: 2 * H,
          attendedTime: 21 * H,
          unattendedTime: 3 * H,
          maintenanceTime: H,
          eventsCount: 3,
          problem1EventsCount: 1,
          problem2EventsCount: 2,
          problem3EventsCount: 0,
          problem4EventsCount: 0,
          maxDownTime: 1.5 * H,
        },
        {
          name: 'B',
          weight: 1,
          influence: 0.25,
          serviceAvailability: 50,
          okTime: 10 * H,
          problemTimePercent: (10 / 24) * 100,
          problemTime: 10 * H,
          attendedTime: 20 * H,
          unattendedTime: 4 * H,
          maintenanceTime: 0,
          eventsCount: 2,
          problem1EventsCount: 0,
          problem2EventsCount: 1,
          problem3EventsCount: 1,
          problem4EventsCount: 0,
          maxDownTime: 5 * H,
        },
      ],
    },
  );
});

t.test('weighted-mean times become whole milliseconds that still add up to the total', async (t) => {
  t.strictSame(roundParts([1.5, 2.5, 0.4, 0.6]), [2, 2, 0, 1], 'leftovers to the largest fractions, earlier first on a tie');
  const odd: SlaFigures = { ...a, okMs: 1000.5, problemMs: 999.5, unattendedMs: 0.4, maintenanceMs: 0.6, attendedMs: 2000.6 };
  const [row] = calculateMulti([{ name: 'odd', weight: 1, figures: odd }]).templateRows;
  t.strictSame([row!.okTime, row!.problemTime, row!.unattendedTime, row!.maintenanceTime, row!.attendedTime], [1001, 999, 0, 1, 2001]);
});

t.test('no templates or no weight: availability 100, influence 0', async (t) => {
  t.strictSame(calculateMulti([]), { serviceAvailability: 100, templateRows: [] });
  const result = calculateMulti([{ name: 'A', weight: 0, figures: a }]);
  t.equal(result.serviceAvailability, 100);
  t.equal(result.templateRows[0]!.influence, 0);
});
