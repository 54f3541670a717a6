/**
 * Issue #34: a consumer tells the engine's failures from the message's by the error catalogue's
 * kinds. The engine's own errors: chDB refusing data and a statement (real errors from the
 * engine), a ClickHouse server's refusal (its numeric code), a refused connection and a full disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createChdbStore } from '../../../../services/runtime/adapters/analytics/chdb.adapter.js';
import { BusUnavailableError } from '../../../../services/runtime/adapters/bus/bus.port.js';
import { isTransient } from '../../../../services/runtime/consumer-edge.js';
import { analyticsThroughEngineCalls, clickhouseCode, engineCall, engineFailure } from '../../../../services/runtime/engine-call.js';
import { fail } from '../../../../schemas/errors.js';
import { createLogger } from '../../../../services/runtime/logger.js';

const failureOf = async (call: () => Promise<unknown>): Promise<unknown> => {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('the call did not fail');
};

t.test('chDB refusing the data or the statement: engine.rejected, not transient', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ops-engine-call-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = analyticsThroughEngineCalls(await createChdbStore({ dataDir: dir, database: 'e' }, { logger: createLogger('silent') }));
  t.teardown(() => store.close());
  await store.command('CREATE TABLE t (a UInt32) ENGINE = MergeTree ORDER BY a');
  const refusedRow = await failureOf(() => store.insert('t', Buffer.from('{"a":-1}\n')));
  t.match(refusedRow, { code: 'engine.rejected', kind: 'unprocessable' });
  t.match((refusedRow as Error).message, /^The analytics store refused the work as given: Code: 72\./);
  t.notOk(isTransient(refusedRow));
  const badStatement = await failureOf(() => store.query('SELECT nope FROM t'));
  t.match(badStatement, { code: 'engine.rejected' }, 'an unknown identifier (code 47)');
  await store.insert('t', [{ a: 1 }]);
  t.same(await store.query('SELECT a FROM t'), [{ a: 1 }], 'calls that succeed pass through');
});

t.test('a server error code, a refused connection, a full disk', async (t) => {
  t.equal(clickhouseCode(Object.assign(new Error('Cannot parse input'), { code: '27' })), 27, "the server's code");
  t.equal(clickhouseCode(new Error('Code: 53. DB::Exception: Type mismatch')), 53, "chDB's quoted code");
  t.equal(clickhouseCode(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })), undefined);
  const refused = engineFailure('analytics store', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }));
  t.match(refused, { code: 'engine.unavailable', kind: 'unavailable' });
  t.ok(isTransient(refused), 'an engine that does not answer is retried without end');
  const memory = engineFailure('analytics store', Object.assign(new Error('Memory limit exceeded'), { code: '241' }));
  t.match(memory, { code: 'engine.unavailable' }, 'a code that does not blame the input: the engine is at fault');
  const full = engineFailure('analytics store', Object.assign(new Error('Cannot reserve 1.00 MiB, not enough space'), { code: '243', type: 'NOT_ENOUGH_SPACE' }));
  t.match(full, { code: 'storage.full', kind: 'unavailable' });
  t.equal((full as Error).cause instanceof Error, true, "the engine's error is kept as the cause");
});

t.test('catalogue errors and bus refusals pass through as they are', async (t) => {
  const busy = fail('control_plane.busy');
  t.equal(await failureOf(() => engineCall('control-plane journal', () => Promise.reject(busy))), busy);
  const bus = new BusUnavailableError('nats is down');
  t.equal(await failureOf(() => engineCall('bus', () => Promise.reject(bus))), bus);
  t.ok(isTransient(bus));
});
