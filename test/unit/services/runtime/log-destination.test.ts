/**
 * Issue #34: a log line that cannot be written never ends the process. Written to /dev/full (every
 * write fails with ENOSPC) the destination counts the failures, drops their lines and goes on;
 * pino on top of it logs on; the flush at exit returns instead of retrying forever. Written to a
 * file, every line arrives, in order; a stuck output holds at most its buffer.
 */
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { createMetrics } from '../../../../services/runtime/http/metrics.js';
import { createLogDestination } from '../../../../services/runtime/log-destination.js';
import { createLogger } from '../../../../services/runtime/logger.js';
import { logOutputRefresher } from '../../../../services/runtime/storage-metrics.js';

/** A log file of its own in a temporary directory, opened for appending; both gone at the test's end. */
function tempLogFile(t: Test): { file: string; fd: number } {
  const dir = mkdtempSync(join(tmpdir(), 'ops-log-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'out.log');
  const fd = openSync(file, 'a');
  t.teardown(() => closeSync(fd));
  return { file, fd };
}

const flushed = (d: { flush(done: () => void): void }): Promise<void> => new Promise((resolve) => d.flush(resolve));

/** /dev/full missing skips with the reason, except under REQUIRE_SERVICES=1, where the test runs and fails. */
const fullDevice = existsSync('/dev/full') || process.env['REQUIRE_SERVICES'] === '1' ? false : 'no /dev/full here';

t.test('on a full disk (/dev/full): counted, dropped, and the logger goes on', { skip: fullDevice }, async (t) => {
  const fd = openSync('/dev/full', 'w');
  t.teardown(() => closeSync(fd));
  const destination = createLogDestination({ fd });
  const logger = createLogger('info', destination);
  for (let i = 0; i < 100; i++) logger.info({ i }, 'a line the disk cannot take');
  await flushed(destination);
  const stats = destination.stats();
  t.ok(stats.writeErrors > 0, `${stats.writeErrors} failed writes`);
  t.equal(stats.droppedLines, 100, 'every line dropped, none kept');
  t.equal(stats.lastError, 'ENOSPC');

  logger.info('one more, waiting for others to share its write');
  logger.info('and one with it');
  destination.flushSync();
  t.equal(destination.stats().droppedLines, 102, 'the exit flush gives up at once on a full disk');
  await flushed(destination);
  t.equal(destination.stats().droppedLines, 102);

  const metrics = createMetrics();
  metrics.onScrape(logOutputRefresher(destination, metrics.storage));
  const text = await metrics.text();
  t.match(text, new RegExp(`^ops_log_write_errors_total ${destination.stats().writeErrors}$`, 'm'));
  t.match(text, /^ops_log_lines_dropped_total 102$/m);
});

t.test('to a file: every line, in order, and flushSync writes what waits', async (t) => {
  const { file, fd } = tempLogFile(t);
  const destination = createLogDestination({ fd, maxWriteChars: 4096 });
  for (let i = 0; i < 5000; i++) destination.write(`${JSON.stringify({ i })}\n`);
  await flushed(destination);
  // Lines wait a little for others to share their write: flushSync writes them now.
  destination.write('{"first":true}\n');
  destination.write('{"last":true}\n');
  destination.flushSync();
  t.match(readFileSync(file, 'utf8'), /\{"last":true\}\n/, 'the waiting line is written by flushSync');
  await flushed(destination);
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  t.equal(lines.length, 5002);
  t.same(
    lines.slice(0, 5000).map((l) => (JSON.parse(l) as { i: number }).i),
    Array.from({ length: 5000 }, (_, i) => i),
    'in order',
  );
  t.same(lines.slice(5000).sort(), ['{"first":true}', '{"last":true}']);
  t.same(destination.stats(), { writeErrors: 0, droppedLines: 0, lastError: undefined });
});

t.test('lines over the buffer are dropped while the output is behind', { skip: fullDevice }, async (t) => {
  const fd = openSync('/dev/full', 'w');
  t.teardown(() => closeSync(fd));
  const destination = createLogDestination({ fd, maxBufferChars: 1000 });
  // Written in one turn: they wait, and past 1 000 bytes they are dropped.
  for (let i = 0; i < 100; i++) destination.write(`${'x'.repeat(99)}\n`);
  t.equal(destination.stats().droppedLines, 90, 'dropped at once');
  await flushed(destination);
  t.equal(destination.stats().droppedLines, 100, 'and the rest as their writes fail');
});

t.test('lines wait for others to share a write: until lingerMs, a write’s worth, or a flush', async (t) => {
  const { file, fd } = tempLogFile(t);
  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  const lingering = createLogDestination({ fd, lingerMs: 3_600_000, maxWriteChars: 100 });
  lingering.write('{"a":1}\n');
  lingering.write('{"b":2}\n');
  await turn();
  await turn();
  t.equal(readFileSync(file, 'utf8'), '', 'nothing written while the lines linger');
  await flushed(lingering);
  t.equal(readFileSync(file, 'utf8'), '{"a":1}\n{"b":2}\n', 'a flush writes them at once, together');

  lingering.write(`${'x'.repeat(60)}\n`);
  lingering.write(`${'y'.repeat(60)}\n`);
  while (!readFileSync(file, 'utf8').includes('x')) await turn();
  t.pass('once a write’s worth (maxWriteChars) waits, it is written without lingering');
  t.notMatch(readFileSync(file, 'utf8'), /y/, 'what is left over lingers');
  await flushed(lingering);
  t.match(readFileSync(file, 'utf8'), /y{60}\n$/);

  const atOnce = createLogDestination({ fd, lingerMs: 0 });
  atOnce.write('{"c":3}\n');
  while (!readFileSync(file, 'utf8').includes('"c"')) await turn();
  t.pass('lingerMs 0 writes each line at once');
});

t.test('lines of any script arrive byte for byte, one over a chunk (256 KiB) too', async (t) => {
  const { file, fd } = tempLogFile(t);
  const destination = createLogDestination({ fd });
  const written: string[] = [];
  for (let i = 0; i < 3000; i++) {
    // 1, 2, 3 and 4 bytes a character in UTF-8 (the last a surrogate pair in the string).
    const line = `${JSON.stringify({ i, msg: 'a é € 😀'.repeat(1 + (i % 7)) })}\n`;
    written.push(line);
    destination.write(line);
  }
  const long = `${'€'.repeat(100_000)}\n`;
  written.push(long);
  destination.write(long);
  destination.write('{"after":true}\n');
  written.push('{"after":true}\n');
  await flushed(destination);
  t.equal(readFileSync(file, 'utf8'), written.join(''));
});
