/** The hits messages of the keyed stage (pipelines/problems/hit-envelope.ts): bounded, in order. */
import t from 'tap';
import { decodeHits, encodeHitChunks } from '../../../pipelines/problems/hit-envelope.js';
import type { KeyedHit } from '../../../pipelines/problems/trigger-match.js';

const hitOf = (n: number, incidents = 0): KeyedHit => ({
  triggerId: 1,
  ciId: n % 50,
  hit: { id: `event-${n}`, ts: 1_700_000_000_000 + n, resolve: n % 3 === 0, priority: 2, incidents: Array.from({ length: incidents }, (_, i) => ({ connectorId: 1, connectorName: 'c', id: `INC-${i}`, type: 'ticket' })) },
});

t.test('hits over the size bound are split into messages under it, which decode to the same hits in order', async (t) => {
  const hits = Array.from({ length: 5000 }, (_, n) => hitOf(n));
  const chunks = encodeHitChunks(hits, 16 * 1024);
  t.ok(chunks.length > 1, `${chunks.length} messages`);
  t.ok(chunks.every((c) => c.byteLength <= 16 * 1024), 'each under the bound');
  t.same(chunks.flatMap((c) => decodeHits(c).hits), hits, 'every hit once, in order');
  t.same(chunks.flatMap((c) => decodeHits(c).closes), []);
});

t.test('hits under the bound stay one message; none, no message', async (t) => {
  const hits = [hitOf(1), hitOf(2)];
  const chunks = encodeHitChunks(hits, 16 * 1024);
  t.equal(chunks.length, 1);
  t.same(decodeHits(chunks[0]!), { hits, closes: [] });
  t.same(encodeHitChunks([], 16 * 1024), []);
});

t.test('a single hit larger than the bound goes alone', async (t) => {
  const big = hitOf(7, 400);
  const chunks = encodeHitChunks([hitOf(1), big, hitOf(2)], 4 * 1024);
  t.same(chunks.map((c) => decodeHits(c).hits.map((h) => h.hit.id)), [['event-1'], ['event-7'], ['event-2']]);
});
