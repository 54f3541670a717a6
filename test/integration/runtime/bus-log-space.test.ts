/**
 * Issue #34: the in-process bus log gives back the space of what was acknowledged. While open,
 * LMDB reuses the pages of removed messages, so the file grows to the largest backlog, not with
 * every message ever logged; it never shrinks while open, so at close an empty log's files are
 * removed and a large one still holding messages is rewritten compacted, keeping them.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { COMPACT_FROM_BYTES, openMemoryBusLog } from '../../../services/runtime/adapters/bus/memory-log.js';

const MiB = 1024 * 1024;
const data = new Uint8Array(64 * 1024).fill(7);

t.test('freed pages are reused, and an empty log leaves no file at close', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ops-bus-log-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const errors: unknown[] = [];
  const log = openMemoryBusLog(dir, (e) => errors.push(e));
  const size = (): number => statSync(join(dir, 'data.mdb')).size;
  let seq = 0;
  const sizes: number[] = [];
  for (let round = 0; round < 4; round++) {
    const first = seq + 1;
    for (let i = 0; i < 800; i++) log.append('RECORDS', { seq: ++seq, subject: 'records.1', data, msgId: `m${seq}`, storedAt: 0 });
    for (let s = first; s <= seq; s++) log.remove('RECORDS', s);
    log.flushRemovals();
    sizes.push(size());
  }
  t.equal(log.restore('RECORDS').length, 0, 'every message removed');
  t.ok(sizes[3]! < 2 * sizes[0]!, `four rounds of a 50 MiB backlog: the file stays near one backlog (${sizes.map((s) => (s / MiB).toFixed(0)).join(', ')} MiB), not four`);
  await log.close();
  t.notOk(existsSync(join(dir, 'data.mdb')), 'closed empty: its file is gone');
  t.same(errors, []);
  const again = openMemoryBusLog(dir, (e) => errors.push(e));
  t.equal(again.restore('RECORDS').length, 0, 'and it opens again, empty');
  await again.close();
});

t.test('a large log still holding messages is compacted at close, and keeps them', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ops-bus-log-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const errors: unknown[] = [];
  const log = openMemoryBusLog(dir, (e) => errors.push(e));
  const count = Math.ceil((COMPACT_FROM_BYTES + 16 * MiB) / data.length);
  for (let seq = 1; seq <= count; seq++) log.append('RECORDS', { seq, subject: 'records.1', data, msgId: `m${seq}`, storedAt: seq });
  for (let seq = 11; seq <= count; seq++) log.remove('RECORDS', seq);
  log.flushRemovals();
  const before = statSync(join(dir, 'data.mdb')).size;
  await log.close();
  const after = statSync(join(dir, 'data.mdb')).size;
  t.ok(before >= COMPACT_FROM_BYTES, `${(before / MiB).toFixed(0)} MiB before`);
  t.ok(after < 4 * MiB, `${(after / MiB).toFixed(1)} MiB after compaction`);
  const reopened = openMemoryBusLog(dir, (e) => errors.push(e));
  const kept = reopened.restore('RECORDS');
  t.same(
    kept.map((m) => [m.seq, m.msgId, m.storedAt, m.data.length]),
    Array.from({ length: 10 }, (_, i) => [i + 1, `m${i + 1}`, i + 1, data.length]),
    'the ten messages not acked are all there',
  );
  t.ok(
    kept.every((m) => m.data.every((b) => b === 7)),
    'with their bytes',
  );
  await reopened.close();
  t.same(errors, []);
});
