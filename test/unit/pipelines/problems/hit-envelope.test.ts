/** The hits messages of the keyed stage (pipelines/problems/hit-envelope.ts): bounded, by key, in order. */
import t from 'tap';
import { decodeHits, encodeHitChunks, encodeHits } from '../../../../pipelines/problems/hit-envelope.js';
import type { KeyedHit } from '../../../../pipelines/problems/trigger-match.js';

const hitOf = (n: number, incidents = 0, ciId = n % 50): KeyedHit => ({
  triggerId: 1 + (n % 2),
  ciId,
  hit: {
    id: `event-${n}`,
    ts: 1_700_000_000_000 + n,
    resolve: n % 3 === 0,
    priority: (1 + (n % 4)) as 1 | 2 | 3 | 4,
    incidents: Array.from({ length: incidents }, (_, i) => ({ connectorId: 1, connectorName: 'c', id: `INC-${i}`, type: 'ticket' })),
  },
});

/** Each key's hits, in the order the messages give them. */
const hitsByKey = (chunks: Uint8Array[]): Map<string, string[]> => {
  const out = new Map<string, string[]>();
  for (const c of chunks) {
    for (const k of decodeHits(c).keys) {
      const key = `${k.triggerId}:${k.ciId}`;
      out.set(key, [...(out.get(key) ?? []), ...k.hits.map((h) => h.id)]);
    }
  }
  return out;
};
const expectedByKey = (hits: KeyedHit[]): Map<string, string[]> => {
  const out = new Map<string, string[]>();
  for (const h of hits) out.set(`${h.triggerId}:${h.ciId}`, [...(out.get(`${h.triggerId}:${h.ciId}`) ?? []), h.hit.id]);
  return out;
};

t.test('hits over the size bound are split into messages under it; each key gets every hit once, in order', async (t) => {
  const hits = Array.from({ length: 5000 }, (_, n) => hitOf(n, n % 7 === 0 ? 2 : 0));
  const chunks = encodeHitChunks(hits, 16 * 1024);
  t.ok(chunks.length > 1, `${chunks.length} messages`);
  t.ok(
    chunks.every((c) => c.byteLength <= 16 * 1024),
    'each under the bound',
  );
  t.same(hitsByKey(chunks), expectedByKey(hits));
  t.same(
    chunks.flatMap((c) => decodeHits(c).closes),
    [],
  );
});

t.test('one key with more hits than a message holds is split over messages in order', async (t) => {
  const hits = Array.from({ length: 3000 }, (_, n) => hitOf(n, 0, 7));
  const chunks = encodeHitChunks(hits, 8 * 1024);
  t.ok(chunks.length > 3 && chunks.every((c) => c.byteLength <= 8 * 1024), `${chunks.length} messages under the bound`);
  t.same(hitsByKey(chunks), expectedByKey(hits));
});

t.test('hits under the bound stay one message, and decode to the same hits; none, no message', async (t) => {
  const hits = [hitOf(1, 1), hitOf(3), hitOf(51, 2)];
  const chunks = encodeHitChunks(hits, 16 * 1024);
  t.equal(chunks.length, 1);
  t.same(decodeHits(chunks[0]!), {
    keys: [
      { triggerId: 2, ciId: 1, hits: [hits[0]!.hit, hits[2]!.hit] },
      { triggerId: 2, ciId: 3, hits: [hits[1]!.hit] },
    ],
    closes: [],
  });
  t.same(encodeHitChunks([], 16 * 1024), []);
});

t.test('a single hit larger than the bound goes alone', async (t) => {
  const big = hitOf(7, 400);
  const chunks = encodeHitChunks([hitOf(1), big, hitOf(2)], 4 * 1024);
  t.same(
    chunks.map((c) => decodeHits(c).keys.flatMap((k) => k.hits.map((h) => h.id))),
    [['event-1'], ['event-7'], ['event-2']],
  );
});

t.test('closes travel alone and decode as sent', async (t) => {
  const close = { triggerId: 3, ciId: 9, at: 1_700_000_000_500 };
  t.same(decodeHits(encodeHits({ keys: [], closes: [close] })), { keys: [], closes: [close] });
});

t.test('every priority and resolve flag survives the columns', async (t) => {
  const hits = Array.from({ length: 8 }, (_, n) => ({ triggerId: 1, ciId: 5, hit: { ...hitOf(n, n % 2).hit, priority: (1 + (n % 4)) as 1 | 2 | 3 | 4, resolve: n >= 4 } }));
  t.same(
    decodeHits(encodeHitChunks(hits, 16 * 1024)[0]!).keys[0]!.hits,
    hits.map((h) => h.hit),
  );
});

t.test('a message written by an earlier version (hits as objects) is still read', async (t) => {
  const hit = hitOf(4, 1).hit;
  const earlier = Buffer.from(JSON.stringify({ keys: [[1, 4, [hit]]], closes: [] }));
  t.same(decodeHits(earlier), { keys: [{ triggerId: 1, ciId: 4, hits: [hit] }], closes: [] });
});

t.test('ids holding a space travel too', async (t) => {
  const hits = [hitOf(1), { ...hitOf(3), ciId: 1, hit: { ...hitOf(3).hit, id: 'an id with spaces' } }];
  t.same(
    decodeHits(encodeHitChunks(hits, 16 * 1024)[0]!).keys[0]!.hits.map((h) => h.id),
    ['event-1', 'an id with spaces'],
  );
});

t.test('the publication time travels with every message, and a message without one still reads', async (t) => {
  const hits = Array.from({ length: 3000 }, (_, n) => hitOf(n, 0, 7));
  const chunks = encodeHitChunks(hits, 8 * 1024, 1_700_000_123_456);
  t.ok(chunks.length > 1 && chunks.every((c) => c.byteLength <= 8 * 1024), 'the time fits under the bound too');
  t.same(
    chunks.map((c) => decodeHits(c).sentAt),
    chunks.map(() => 1_700_000_123_456),
  );
  t.equal(decodeHits(encodeHitChunks(hits.slice(0, 2), 8 * 1024)[0]!).sentAt, undefined);
});
