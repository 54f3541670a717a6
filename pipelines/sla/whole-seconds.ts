/**
 * The times of one export row (a CI, or a template of a Multi report) in whole seconds, so that
 * the shown parts add up (issue #37). A row holds milliseconds; the CSV and xlsx exports show
 * seconds (spec 2.15, 2.16), and analysts check the sums DESIGN §9 states:
 *
 *   ok + problem + maintenance + unattended = the range (end − start)
 *   ok + problem + maintenance              = attended (working time = range − unattended)
 *
 * Rounding each part on its own breaks them: 2 171.5 s of ok and 108.5 s of problem time, both
 * rounded half up, show 2 172 + 109 = 2 281 s of a 2 280 s whole.
 *
 * The rule: the range (the sum of the four parts) is rounded to the nearest second, half up; it
 * is split into attended and unattended seconds by largest remainder, and attended into
 * problem, ok and maintenance seconds the same way. Largest remainder: each part is rounded
 * down, then the seconds still missing go one each to the parts with the largest remainders;
 * equal remainders give to the earlier part in the order attended, unattended and problem, ok,
 * maintenance (so an exact half second of problem time against one of ok time shows as problem
 * time, the cautious side of an SLA).
 *
 * So the shown parts add up to the shown attended time and range exactly, and every shown time
 * (the four parts and attended) is less than 1 s from its exact value, the range at most 0.5 s.
 * Splitting in two steps is what bounds attended: a single largest-remainder split of the four
 * parts can leave ok + problem + maintenance more than 1 s from the exact attended time (four
 * parts of 0.625 s: 1 + 1 + 1 shown for 1.875 s).
 */

/** A row's times in milliseconds (non-negative; any finite values are rounded consistently). */
export interface TimeParts {
  okMs: number;
  problemMs: number;
  maintenanceMs: number;
  unattendedMs: number;
}

/** The same times in whole seconds: ok + problem + maintenance = attended; attended + unattended = total. */
export interface WholeSeconds {
  ok: number;
  problem: number;
  maintenance: number;
  unattended: number;
  attended: number;
  total: number;
}

/**
 * `parts` (milliseconds) as whole seconds summing to `totalSeconds`, by largest remainder: each
 * part rounded down, then one second more to each of the parts with the largest remainders,
 * earlier parts first on equal remainders. `totalSeconds` is meant to be within the number of
 * parts of the rounded-down sum; if it is not, the difference is spread evenly first, so the sum
 * always holds.
 */
export function largestRemainder(parts: readonly number[], totalSeconds: number): number[] {
  const seconds = parts.map((ms) => Math.floor(ms / 1000));
  if (seconds.length === 0) return seconds;
  let left = totalSeconds - seconds.reduce((a, b) => a + b, 0);
  const even = Math.floor(left / seconds.length);
  if (even !== 0) {
    for (let i = 0; i < seconds.length; i++) seconds[i]! += even;
    left -= even * seconds.length;
  }
  const order = parts.map((ms, i) => ({ i, rest: ms - Math.floor(ms / 1000) * 1000 })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (let k = 0; k < left; k++) seconds[order[k]!.i]! += 1;
  return seconds;
}

/** A row's times in whole seconds that add up (see the file comment). */
export function wholeSeconds(parts: TimeParts): WholeSeconds {
  const attendedMs = parts.okMs + parts.problemMs + parts.maintenanceMs;
  const total = Math.round((attendedMs + parts.unattendedMs) / 1000);
  const [attended, unattended] = largestRemainder([attendedMs, parts.unattendedMs], total) as [number, number];
  const [problem, ok, maintenance] = largestRemainder([parts.problemMs, parts.okMs, parts.maintenanceMs], attended) as [number, number, number];
  return { ok, problem, maintenance, unattended, attended, total };
}
