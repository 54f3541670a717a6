/**
 * Issue #34: a full store is told apart from every other failure by what each engine says
 * (storage-full.ts), and becomes 503 `storage.full` with Retry-After at the HTTP edge.
 */
import { ClickHouseError } from '@clickhouse/client';
import t from 'tap';
import { fail } from '../../../../schemas/errors.js';
import { problemReply } from '../../../../services/runtime/http/problem.js';
import { silentLogger } from '../../../../services/runtime/logger.js';
import { lmdbCommitError, STORAGE_FULL_RETRY_AFTER_SECONDS, storageFull, storageFullReason } from '../../../../services/runtime/storage-full.js';

const errno = (code: string, n: number, message: string): NodeJS.ErrnoException => Object.assign(new Error(message), { code, errno: n });

t.test('what each engine says when its store is full', async (t) => {
  const full: Array<[string, unknown]> = [
    ['a file write (ENOSPC)', errno('ENOSPC', -28, 'ENOSPC: no space left on device, write')],
    ['LMDB with nothing written (code 28)', Object.assign(new Error('No space left on device: Attempting to write page'), { code: 28 })],
    ['a quota', errno('EDQUOT', -122, 'EDQUOT: disk quota exceeded')],
    ['chDB (clickhouseCode 243)', Object.assign(new Error('Code: 243. DB::Exception: Cannot reserve 1.00 MiB, not enough space. (NOT_ENOUGH_SPACE)'), { clickhouseCode: 243 })],
    ['a ClickHouse server (code 243)', new ClickHouseError({ message: 'Cannot reserve 6.29 MiB, not enough space', code: '243', type: 'NOT_ENOUGH_SPACE' })],
    ['ClickHouse quoting errno 28', new Error('Code: 75. Cannot write to file /var/lib/clickhouse/tmp/x.bin, errno: 28, strerror: No space left on device')],
    ['Redis MISCONF', new Error("MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk")],
    ['Redis OOM', new Error("OOM command not allowed when used memory > 'maxmemory'.")],
    ['Redis OOM inside a script', new Error("ERR Error running script (call to f_1): @user_script:5: OOM command not allowed when used memory > 'maxmemory'.")],
    ['JetStream', new Error('insufficient storage resources available')],
    ['a full store as the cause', new Error('the bus refused the batch', { cause: errno('ENOSPC', -28, 'no space') })],
    ['storage.full already', storageFull('bus', 'no space left on device')],
  ];
  for (const [what, error] of full) t.type(storageFullReason(error), 'string', what);

  const other: Array<[string, unknown]> = [
    ['permission', errno('EACCES', -13, 'EACCES: permission denied')],
    ['a refused connection', errno('ECONNREFUSED', -111, 'connect ECONNREFUSED 127.0.0.1:6379')],
    ['a ClickHouse syntax error', new ClickHouseError({ message: 'Syntax error', code: '62', type: 'SYNTAX_ERROR' })],
    ['too many parts', Object.assign(new Error('Code: 252. Too many parts (TOO_MANY_PARTS)'), { clickhouseCode: 252 })],
    ['an I/O error without a directory to look at', Object.assign(new Error('Input/output error'), { code: 5 })],
    ['an I/O error on a disk with room', Object.assign(new Error('Input/output error'), { code: 5 })],
    ['a domain error', fail('ci.name_missing')],
    ['nothing', undefined],
  ];
  for (const [what, error] of other) t.equal(storageFullReason(error, what.endsWith('room') ? '/' : undefined), undefined, what);
});

t.test('storage.full answers 503 with Retry-After and keeps what the engine said', async (t) => {
  const cause = errno('ENOSPC', -28, 'no space');
  const error = storageFull('journal', 'no space left on device', cause);
  t.equal(error.cause, cause);
  const reply = problemReply(error, silentLogger());
  t.equal(reply.status, 503);
  t.equal(reply.headers?.['Retry-After'], String(STORAGE_FULL_RETRY_AFTER_SECONDS));
  t.match(reply.body, { code: 'storage.full', type: 'urn:ops:problem:unavailable', detail: /journal store is full .*no space left on device/ });
});

t.test("lmdb-js's commitError is taken over and its error returned", async (t) => {
  const inner = errno('ENOSPC', -28, 'no space');
  const commitError = Promise.reject(inner);
  const outer = Object.assign(new Error('Commit failed (see commitError for details)'), { commitError });
  t.equal(await lmdbCommitError(outer), inner);
  const plain = new Error('other');
  t.equal(await lmdbCommitError(plain), plain, 'an error without one is returned as it is');
});
