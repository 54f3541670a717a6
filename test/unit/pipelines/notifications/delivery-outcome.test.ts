/** delivery-outcome.ts: each answer's verdict, by hand-worked cases. */
import t from 'tap';
import { backoffMs, judgeAttempt, retryAfterMs } from '../../../../pipelines/notifications/delivery-outcome.js';

const now = Date.parse('2026-03-02T08:00:00Z');
const ctx = (attempt: number, ageMs = 0) => ({ attempt, firstAt: now - ageMs, now, maxAgeMs: 24 * 3600_000 });
const answer = (status: number, retryAfter?: string) => ({ kind: 'answer' as const, status, retryAfter });

t.test('the answers', async (t) => {
  t.same(judgeAttempt(answer(204), ctx(1)), { kind: 'delivered' });
  t.same(judgeAttempt(answer(410), ctx(1)), { kind: 'gone', reason: 'gone (410)' });
  t.same(judgeAttempt(answer(400), ctx(1)), { kind: 'refused', reason: 'refused (400)' });
  t.same(judgeAttempt(answer(500), ctx(1)), { kind: 'retry', delayMs: 1000, reason: 'failed (500)' });
  t.same(judgeAttempt(answer(502), ctx(3)), { kind: 'retry', delayMs: 4000, reason: 'failed (502)' });
  t.same(judgeAttempt(answer(429, '7'), ctx(1)), { kind: 'retry', delayMs: 7000, reason: 'failed (429)' });
  t.same(judgeAttempt(answer(503, 'Mon, 02 Mar 2026 08:00:30 GMT'), ctx(1)), { kind: 'retry', delayMs: 30_000, reason: 'failed (503)' });
  t.same(judgeAttempt(answer(500, '7'), ctx(1)), { kind: 'retry', delayMs: 1000, reason: 'failed (500)' }, 'Retry-After only on 429 and 503');
  t.same(judgeAttempt({ kind: 'failure', transient: true, reason: 'timeout' }, ctx(2)), { kind: 'retry', delayMs: 2000, reason: 'timeout' });
  t.same(judgeAttempt({ kind: 'failure', transient: false, reason: 'address refused' }, ctx(1)), { kind: 'refused', reason: 'address refused' });
});

t.test('backoff doubles to 5 minutes; past the maximum age a retry is expired', async (t) => {
  t.same(
    [1, 2, 3, 9, 10, 40].map((a) => backoffMs(a)),
    [1000, 2000, 4000, 256_000, 300_000, 300_000],
  );
  t.match(judgeAttempt(answer(500), ctx(30, 24 * 3600_000 - 60_000)), { kind: 'expired' });
  t.match(judgeAttempt(answer(500), ctx(30, 24 * 3600_000 - 600_000)), { kind: 'retry', delayMs: 300_000 });
  t.equal(retryAfterMs('soon', now), undefined);
  t.equal(retryAfterMs('999999', now), 3600_000, 'capped at an hour');
});
