/**
 * Part of the live SLA projection: the problems of the last 31 days by CI, as live-sla.ts reads them, held compactly:
 * an installation of 100 000 CIs has some 10 000 000 of them. Per CI, parallel arrays of numbers
 * (unboxed by V8) instead of an object and a map entry per problem: about 50 bytes a problem.
 * A problem is known by a 53-bit hash of its id, compared only among its CI's problems (a CI has
 * hundreds at most, so two ids of one CI never meet on one hash in practice).
 */
import type { ProblemTimes } from '../../pipelines/sla/sla.types.js';

/** One row of `problems` (or `problem_changes`), as read. */
export interface ProblemFacts {
  id: string;
  ciId: number;
  start: number;
  /** null while open. */
  end: number | null;
  priority: number;
  influence: { value: number; maxInfluence: boolean };
  version: number;
  /** The row says the problem never existed. */
  deleted: boolean;
}

interface CiProblems {
  ids: number[];
  starts: number[];
  /** −1 while open. */
  ends: number[];
  /** 0: deleted (kept, so an older row read again cannot bring it back). */
  priorities: number[];
  /** Percent; −1 for maxInfluence. */
  influences: number[];
  versions: number[];
}

/** cyrb53: a fast 53-bit string hash (public domain, by bryc). */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

const MAX_INFLUENCE = { value: 100, maxInfluence: true } as const;

export class LiveProblems {
  private readonly byCi = new Map<number, CiProblems>();
  /** Problems held, deleted ones included. */
  size = 0;

  /** A later row of a problem replaces an earlier one; an older version never replaces a newer. */
  put(row: ProblemFacts): void {
    this.write(row, true);
  }

  /** A row of a problem not held yet (a FINAL read has one row per problem): no lookup. */
  add(row: ProblemFacts): void {
    this.write(row, false);
  }

  private write(row: ProblemFacts, lookUp: boolean): void {
    let ci = this.byCi.get(row.ciId);
    if (!ci) this.byCi.set(row.ciId, (ci = { ids: [], starts: [], ends: [], priorities: [], influences: [], versions: [] }));
    const id = hash53(row.id);
    let at = lookUp ? ci.ids.indexOf(id) : -1;
    if (at < 0) {
      at = ci.ids.length;
      ci.ids.push(id);
      this.size++;
    } else if (ci.versions[at]! > row.version) return;
    ci.starts[at] = row.start;
    ci.ends[at] = row.end ?? -1;
    ci.priorities[at] = row.deleted ? 0 : row.priority;
    ci.influences[at] = row.influence.maxInfluence ? -1 : row.influence.value;
    ci.versions[at] = row.version;
  }

  /** The last instant a problem of the CI (deleted ones aside) was open: `now` while one is; −∞ without any. */
  lastProblemAt(ciId: number, now: number): number {
    const ci = this.byCi.get(ciId);
    let last = Number.NEGATIVE_INFINITY;
    if (!ci) return last;
    for (let i = 0; i < ci.ids.length; i++) {
      if (ci.priorities[i]! === 0) continue;
      const end = ci.ends[i]!;
      if (end < 0) return now;
      if (end > last) last = end;
    }
    return last;
  }

  /** The CI's problems, deleted ones left out. */
  ofCi(ciId: number): ProblemTimes[] {
    const ci = this.byCi.get(ciId);
    const out: ProblemTimes[] = [];
    if (!ci) return out;
    for (let i = 0; i < ci.ids.length; i++) {
      const priority = ci.priorities[i]!;
      if (priority === 0) continue;
      const influence = ci.influences[i]!;
      out.push({
        start: ci.starts[i]!,
        end: ci.ends[i]! < 0 ? null : ci.ends[i]!,
        priority: priority as ProblemTimes['priority'],
        influence: influence < 0 ? MAX_INFLUENCE : { value: influence, maxInfluence: false },
      });
    }
    return out;
  }
}
