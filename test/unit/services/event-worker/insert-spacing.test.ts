/** The event worker's spacing of pulls: short when little gathers, longer under load, none on JetStream. */
import t from 'tap';
import { insertSpacingMs } from '../../../../services/event-worker/insert-spacing.js';

t.test('in-process, a pull of up to 1 000 records is followed by one 50 ms later', async (t) => {
  t.equal(insertSpacingMs(true, 0), 50);
  t.equal(insertSpacingMs(true, 1), 50);
  t.equal(insertSpacingMs(true, 1000), 50);
});

t.test('in-process, the spacing grows with the records of the last pull, up to 250 ms', async (t) => {
  t.equal(insertSpacingMs(true, 2000), 100);
  t.equal(insertSpacingMs(true, 5000), 250);
  t.equal(insertSpacingMs(true, 100_000), 250);
});

t.test('with JetStream, pulls are not spaced: workers scale out by process', async (t) => {
  t.equal(insertSpacingMs(false, 0), 0);
  t.equal(insertSpacingMs(false, 100_000), 0);
});
