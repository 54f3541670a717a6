/**
 * A stream's activity (GET /api/public/cl/v1/streams/{id}/activity, the console's streams
 * screen): records stored and dead letters per minute by receipt, every minute of the range
 * present, on the platform's clock; and one test per error.
 */
import t from 'tap';
import { ingestSettled } from '../../support/settled.js';
import { ProblemsKit } from '../problems/problems-kit.js';

const k = new ProblemsKit();
let stream: { id: number; key: string };

/** Texts to a text stream, one record each: `LEVEL message` is stored, any other text a dead letter. */
async function post(texts: string[]): Promise<void> {
  for (const text of texts) {
    const answer = await k.api('POST', `/api/public/cl/v1/stream-data?streamKey=${encodeURIComponent(stream.key)}`, {
      body: text,
      headers: { 'content-type': 'text/plain' },
      token: null,
    });
    if (answer.status !== 200) throw new Error(`post: ${answer.status} ${answer.text}`);
  }
  await ingestSettled(k.p.platform);
}
const activity = (id: number, query = '', token?: string) => k.api('GET', `/api/public/cl/v1/streams/${id}/activity${query}`, token ? { token } : {});

t.before(async () => {
  // Half a minute into a minute, so a tick of 60 s lands in the next one.
  k.clock = Date.parse('2026-11-20T10:15:30.000Z');
  await k.start();
  const created = await k.api('POST', '/api/admin/v1/streams', { json: { name: 'activity', config: { parser: { type: 'text', pattern: '^(?<level>[A-Z]+) (?<msg>.*)$' } } } });
  stream = { id: created.body.id, key: created.body.key };
  await post(['INFO one', 'WARN two', 'not a record']);
  k.tick(60_000);
  await post(['INFO three']);
});
t.teardown(() => k.stop());

t.test('every minute of the last hour, oldest first, the current one last, with its records and dead letters', async (t) => {
  const answer = await activity(stream.id);
  t.equal(answer.status, 200, answer.text);
  const { buckets } = answer.body;
  t.equal(buckets.length, 60);
  t.equal(answer.body.bucketSeconds, 60);
  t.equal(buckets.at(-1).at, '2026-11-20T10:16:00.000Z', 'the current minute last');
  t.equal(buckets[0].at, '2026-11-20T09:17:00.000Z');
  t.same(buckets.at(-2), { at: '2026-11-20T10:15:00.000Z', records: 2, deadLetters: 1 }, 'the minute the first post was received');
  t.same(buckets.at(-1), { at: '2026-11-20T10:16:00.000Z', records: 1, deadLetters: 0 });
  t.equal(
    buckets.slice(0, -2).every((b: { records: number; deadLetters: number }) => b.records === 0 && b.deadLetters === 0),
    true,
    'the other minutes are there, empty',
  );
});

t.test('`minutes` sets how far back', async (t) => {
  const answer = await activity(stream.id, '?minutes=1');
  t.equal(answer.status, 200, answer.text);
  t.same(answer.body.buckets, [{ at: '2026-11-20T10:16:00.000Z', records: 1, deadLetters: 0 }]);
});

t.test('minutes outside 1 to 1440 are refused (400)', async (t) => {
  for (const bad of ['0', '1441', 'x']) t.equal((await activity(stream.id, `?minutes=${bad}`)).status, 400, `minutes=${bad}`);
});

t.test('a stream that does not exist is 404', async (t) => {
  const answer = await activity(999_999);
  t.equal(answer.status, 404);
  t.equal(answer.body.code, 'stream.not_found');
});

t.test('a user without base-system.streams.read is refused (403); a stream reader may read it', async (t) => {
  const nobody = await k.user();
  t.equal((await activity(stream.id, '', nobody.token)).status, 403);
  const reader = await k.user();
  const roles = await k.api('PATCH', `/api/admin/v1/users/${reader.id}`, { json: { roles: ['stream-reader'] } });
  t.equal(roles.status, 200, roles.text);
  t.equal((await activity(stream.id, '', reader.token)).status, 200);
});
