/** The event worker's insert groups: fetched messages cut by bytes, in order, none lost. */
import t from 'tap';
import { insertGroups } from '../../../../services/event-worker/insert-groups.js';

// Only the length counts: no need to allocate the bytes.
const message = (id: number, bytes: number) => ({ id, data: { byteLength: bytes } as Uint8Array });
const ids = (groups: Array<Array<{ id: number }>>) => groups.map((g) => g.map((m) => m.id));

t.test('messages go in order into groups of at most maxBytes of data', async (t) => {
  const messages = [message(1, 40), message(2, 40), message(3, 40), message(4, 10), message(5, 90)];
  t.same(ids(insertGroups(messages, 100)), [[1, 2], [3, 4], [5]]);
});

t.test('a message larger than maxBytes goes alone; none, no group', async (t) => {
  t.same(ids(insertGroups([message(1, 10), message(2, 500), message(3, 10)], 100)), [[1], [2], [3]]);
  t.same(insertGroups([], 100), []);
});

t.test('64 messages of 8 MB are never one insert', async (t) => {
  const groups = insertGroups(
    Array.from({ length: 64 }, (_, i) => message(i, 8 * 1024 * 1024)),
    64 * 1024 * 1024,
  );
  t.equal(groups.length, 8);
  t.same(
    groups.flat().map((m) => m.id),
    Array.from({ length: 64 }, (_, i) => i),
  );
});
