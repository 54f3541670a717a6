/**
 * The data of the problems API benchmark (issue #30), deterministic and without I/O: the CMDB,
 * who may read what, the problem rows, the event lines and the changes the SSE publisher sends.
 *
 * - CMDB: 100 000 CIs in 100 sites of 1 000: a site root (`site-…`), 9 clusters under it and
 *   990 hosts, 110 under each cluster. Site s's CIs are ids s·1000 + 1 … s·1000 + 1000.
 * - Rights: the benchmark user is in workgroup `ops` only. Sites with s % 20 = 0 belong to `ops`;
 *   sites with s % 20 = 10 belong to `net` and share their tree with `ops` by a `Tree` grant
 *   (read) on the root, so the user reads them through the ancestor walk; the rest is hidden.
 *   The user reads 10 % of the CIs, half as owner, half through a grant.
 * - Problems: `perCi` per CI (10 at full scale: 1 000 000), one per slot of the 30 days before
 *   the seed, 1 min to 4 h long, priorities 1–4, triggers 1–5; the CIs with id % 10 = 9 (10 %)
 *   keep their last problem open: 10 000 open, 1 000 of them on CIs the user reads.
 * - Events: `count` lines over the 24 h before the seed, spread evenly over `streams` streams,
 *   payload `{"host","level","msg"}` with level `error` for 10 % of them.
 */
import type { CiRecord } from '../../services/control-plane/cmdb/cmdb.types.js';
import type { JournalChange } from '../../services/runtime/adapters/journal/journal.port.js';
import type { ProblemRow } from '../../pipelines/problems/problem-row.js';
import { clickhouseDateTime } from '../../pipelines/records/timestamps.js';
import { seededRandom } from '../../test/support/random.js';

/** problems-server.ts's admin token (that module is not imported: it starts a platform when loaded). */
export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
export const SITES = 100;
export const SITE_SIZE = 1000;
export const CI_COUNT = SITES * SITE_SIZE;
const CLUSTERS = 9;
const HOSTS_PER_CLUSTER = (SITE_SIZE - 1 - CLUSTERS) / CLUSTERS;
export const DAY_MS = 86_400_000;
export const PROBLEM_DAYS = 30;
export const TRIGGERS = 5;

export const siteOf = (id: number): number => Math.floor((id - 1) / SITE_SIZE);
export const siteRoot = (site: number): number => site * SITE_SIZE + 1;
const ownedByOps = (site: number): boolean => site % 20 === 0;
const sharedToOps = (site: number): boolean => site % 20 === 10;
/** Whether the benchmark user may read the CI (basic-read or more). */
export const readable = (id: number): boolean => ownedByOps(siteOf(id)) || sharedToOps(siteOf(id));
/** The CIs the user may read, ascending. */
export const readableIds = (): number[] => Array.from({ length: CI_COUNT }, (_, i) => i + 1).filter(readable);
/** The CIs of a site's tree, the root included. */
export const subtreeIds = (site: number): number[] => Array.from({ length: SITE_SIZE }, (_, i) => site * SITE_SIZE + 1 + i);
/** A site the user reads through its `Tree` grant (the subtree scenario's root). */
export const SHARED_SITE = 10;

function parentOf(id: number): number | null {
  const site = siteOf(id);
  const offset = id - site * SITE_SIZE - 1;
  if (offset === 0) return null;
  if (offset <= CLUSTERS) return siteRoot(site);
  return siteRoot(site) + 1 + Math.floor((offset - 1 - CLUSTERS) / HOSTS_PER_CLUSTER);
}

export interface CmdbContext {
  opsWorkGroupId: number;
  netWorkGroupId: number;
  typeId: number;
  author: { id: number; name: string };
  now: string;
}

function ciRecord(id: number, ctx: CmdbContext): CiRecord {
  const site = siteOf(id);
  const parentId = parentOf(id);
  const kind = parentId === null ? 'site' : parentOf(parentId) === null ? 'cluster' : 'host';
  return {
    id,
    name: `${kind}-${String(id).padStart(6, '0')}`,
    description: `${kind} ${id} of site ${site}`,
    parentId,
    ownerWorkGroupId: ownedByOps(site) ? ctx.opsWorkGroupId : ctx.netWorkGroupId,
    typeId: ctx.typeId,
    labels: { site: `site-${site}`, kind },
    cmdbSystemId: -1,
    cmdbLinks: [],
    grants: parentId === null && sharedToOps(site) ? [{ id: (site - 10) / 20 + 1, workGroupId: ctx.opsWorkGroupId, shareType: 'Tree', grants: ['base-system.rsm.read'] }] : [],
    influentialIds: [],
    createdAt: ctx.now,
    createdBy: ctx.author.id,
    createdByName: ctx.author.name,
    updatedAt: ctx.now,
    updatedBy: ctx.author.id,
    updatedByName: ctx.author.name,
  };
}

/** The journal changes for CIs `from..to` (inclusive); the last chunk also sets the sequences. */
export function cmdbChanges(from: number, to: number, ctx: CmdbContext): JournalChange[] {
  const changes: JournalChange[] = [];
  for (let id = from; id <= to; id++) changes.push({ key: `ci:${id}`, value: ciRecord(id, ctx) });
  if (to === CI_COUNT) {
    changes.push({ key: 'seq:ci', value: CI_COUNT });
    // Grant ids 1..5: the roots of sites 10, 30, 50, 70, 90.
    changes.push({ key: 'seq:grant', value: SITES / 20 });
  }
  return changes;
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');
/** A problem id: the row number in the last 12 digits, a scrambled head so ids do not sort by it. */
export const problemId = (k: number, variant = '8'): string => `${hex(Math.imul(k + 1, 0x9e3779b1) >>> 0, 8)}-0000-4000-${variant}000-${hex(k, 12)}`;
/** Whether the CI keeps its last problem open. */
export const hasOpenProblem = (ci: number): boolean => ci % 10 === 9;

/**
 * NDJSON of the problems of CIs `fromCi..toCi` (inclusive), `perCi` each, ending at `endMs`.
 * `openOnly`: only the open ones (the SSE installation needs the open index, not the history).
 */
export function problemLines(fromCi: number, toCi: number, perCi: number, endMs: number, openOnly = false): string {
  const rnd = seededRandom(fromCi * 31 + 7);
  const startMs = endMs - PROBLEM_DAYS * DAY_MS;
  const slot = (endMs - startMs) / perCi;
  let lines = '';
  for (let ci = fromCi; ci <= toCi; ci++) {
    for (let j = 0; j < perCi; j++) {
      const k = (ci - 1) * perCi + j;
      const start = Math.floor(startMs + j * slot + rnd() * slot * 0.5);
      const open = j === perCi - 1 && hasOpenProblem(ci);
      const end = start + 60_000 + Math.floor(rnd() * 4 * 3_600_000);
      const priority = 1 + Math.floor(rnd() * 4);
      if (openOnly && !open) continue;
      const trigger = 1 + (k % TRIGGERS);
      const row: Omit<ProblemRow, 'acknowledged' | 'comments_count'> = {
        id: problemId(k),
        trigger_id: trigger,
        trigger_name: `trigger-${trigger}`,
        ci_id: ci,
        date_start: clickhouseDateTime(start),
        date_end: open ? null : clickhouseDateTime(Math.min(end, endMs - 1)),
        last_event_at: clickhouseDateTime(start),
        priority,
        tags: '[]',
        incidents: '[]',
        influence_value: 50,
        influence_max: 0,
        with_maintenance: 0,
        version: 1,
        is_deleted: 0,
      };
      lines += `${JSON.stringify(row)}\n`;
    }
  }
  return lines;
}

const LEVELS = ['error', 'warn', 'info', 'info', 'info', 'info', 'warn', 'info', 'info', 'info'];
const MESSAGES = ['disk usage above threshold', 'connection refused by upstream', 'request served', 'cache miss', 'job finished', 'retrying after timeout'];
export const EVENT_HOURS = 24;

/** NDJSON of events `from..to - 1` of `count`, evenly over the 24 h before `endMs`, event i on stream streamIds[i % n]. */
export function eventLines(from: number, to: number, count: number, endMs: number, streamIds: readonly number[]): string {
  const rnd = seededRandom(from + 11);
  const step = (EVENT_HOURS * 3_600_000) / count;
  const startMs = endMs - EVENT_HOURS * 3_600_000;
  // Ten million lines: the dates are written from a cached second, the payload escaped by hand.
  let second = -1;
  let prefix = '';
  const date = (ms: number): string => {
    const s = Math.floor(ms / 1000);
    if (s !== second) {
      second = s;
      prefix = clickhouseDateTime(s * 1000).slice(0, 20);
    }
    return prefix + String(ms - s * 1000).padStart(3, '0');
  };
  const parts: string[] = [];
  for (let i = from; i < to; i++) {
    const ts = Math.floor(startMs + i * step);
    const host = Math.floor(rnd() * 1000);
    const id = `${hex(Math.imul(i + 1, 0x85ebca6b) >>> 0, 8)}-${hex(i & 0xffff, 4)}-4000-a000-${hex(i, 12)}`;
    const payload = `{\\"host\\":\\"h${host}\\",\\"level\\":\\"${LEVELS[i % LEVELS.length]}\\",\\"msg\\":\\"${MESSAGES[host % MESSAGES.length]} (${i})\\"}`;
    parts.push(`{"id":"${id}","stream_id":${streamIds[i % streamIds.length]},"ts":"${date(ts)}","received_at":"${date(ts + 5)}","route":"","labels":{},"payload":"${payload}"}\n`);
  }
  return parts.join('');
}

/** The CI of SSE change `seq`: a walk over every CI (7919 is prime to 100 000), 10 % of them readable. */
export const changeCi = (seq: number): number => 1 + ((seq * 7919) % CI_COUNT);
