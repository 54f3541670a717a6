/**
 * Issue #34: OPS_MIN_FREE_DISK as an operator writes it (a size, a percent, several: the largest),
 * its default (the larger of 5 % and 1 GiB), and the retention variables; a bad value stops the
 * start with one line naming the variable.
 */
import t from 'tap';
import { formatBytes, parseDiskAmounts, resolveDiskAmounts } from '../../../../services/runtime/disk-amount.js';
import { ConfigError, loadConfig } from '../../../../services/runtime/config.js';

const GiB = 1024 ** 3;

t.test('sizes in binary and decimal units, bytes, and percents', async (t) => {
  t.same(parseDiskAmounts('2GiB'), [{ bytes: 2 * GiB }]);
  t.same(parseDiskAmounts('2G'), [{ bytes: 2 * GiB }]);
  t.same(parseDiskAmounts('500MB'), [{ bytes: 500_000_000 }]);
  t.same(parseDiskAmounts('1.5 mib'), [{ bytes: 1.5 * 1024 * 1024 }]);
  t.same(parseDiskAmounts('1073741824'), [{ bytes: GiB }]);
  t.same(parseDiskAmounts('5%'), [{ percent: 5 }]);
  t.same(parseDiskAmounts('5%, 1GiB'), [{ percent: 5 }, { bytes: GiB }]);
  t.throws(() => parseDiskAmounts('101%'), /above 100%/);
  t.throws(() => parseDiskAmounts('5 parsecs'));
});

t.test('several amounts mean the largest on the filesystem at hand', async (t) => {
  const defaults = [{ percent: 5 }, { bytes: GiB }];
  t.equal(resolveDiskAmounts(defaults, 10 * GiB), GiB, 'a 10 GiB disk: 1 GiB is more than 5 %');
  t.equal(resolveDiskAmounts(defaults, 100 * GiB), 5 * GiB, 'a 100 GiB disk: 5 % is more than 1 GiB');
  t.equal(resolveDiskAmounts([{ bytes: 0 }], 100 * GiB), 0, '0 turns the watermark off');
});

t.test('bytes as people read them', async (t) => {
  t.equal(formatBytes(0), '0 B');
  t.equal(formatBytes(1536), '1.5 KiB');
  t.equal(formatBytes(6 * 1024 * 1024), '6.0 MiB');
  t.equal(formatBytes(250 * GiB), '250 GiB');
});

t.test('the configuration: defaults and the variables', async (t) => {
  const defaults = loadConfig({});
  t.same(defaults.minFreeDisk, [{ percent: 5 }, { bytes: GiB }], 'OPS_MIN_FREE_DISK: the larger of 5 % and 1 GiB');
  t.same(defaults.retention, { eventsDays: 30, problemsDays: 400, deadLettersDays: 7 }, 'events 30 days, problems 400, dead letters 7');
  const set = loadConfig({ OPS_MIN_FREE_DISK: '2GiB', OPS_EVENTS_RETENTION_DAYS: '7', OPS_PROBLEMS_RETENTION_DAYS: '731', OPS_DEAD_LETTERS_RETENTION_DAYS: '14' });
  t.same(set.minFreeDisk, [{ bytes: 2 * GiB }]);
  t.same(set.retention, { eventsDays: 7, problemsDays: 731, deadLettersDays: 14 });
  t.same(loadConfig({ OPS_MIN_FREE_DISK: '10%' }).minFreeDisk, [{ percent: 10 }]);
});

const bad: Array<[string, string, RegExp]> = [
  ['OPS_MIN_FREE_DISK', 'lots', /^OPS_MIN_FREE_DISK must be a size \(2GiB, 500MB, bytes\) or a percent/],
  ['OPS_MIN_FREE_DISK', '150%', /^OPS_MIN_FREE_DISK must be .*above 100%/],
  ['OPS_EVENTS_RETENTION_DAYS', '0', /^OPS_EVENTS_RETENTION_DAYS must be an integer from 1 to 3650/],
  ['OPS_PROBLEMS_RETENTION_DAYS', '4000', /^OPS_PROBLEMS_RETENTION_DAYS must be an integer from 1 to 3650/],
  ['OPS_PROBLEMS_RETENTION_DAYS', 'a year', /^OPS_PROBLEMS_RETENTION_DAYS must be/],
];
for (const [name, value, message] of bad) {
  t.test(`a bad ${name} (${value}) stops the start with one line naming it`, async (t) => {
    t.throws(() => loadConfig({ [name]: value }), ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      t.match((error as Error).message, message);
      t.notMatch((error as Error).message, /\n/);
    }
  });
}
