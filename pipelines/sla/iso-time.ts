/**
 * `Date.prototype.toISOString` for the million dates of a large report, about twice as fast: the
 * day part comes from a small cache, the time of day from two lookup tables (1 440 `HH:mm:` and
 * 60 000 `ss.SSSZ` strings, built on first use). Same output as toISOString; instants outside
 * years 1970..9999 go to toISOString itself.
 */

const DAY = 86_400_000;
const MAX = 253_402_300_800_000; // 10000-01-01T00:00:00Z

let minutes: string[] | null = null;
let seconds: string[] | null = null;
const days = new Map<number, string>();

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function tables(): [string[], string[]] {
  if (minutes === null || seconds === null) {
    minutes = Array.from({ length: 1440 }, (_, i) => `${pad(Math.floor(i / 60), 2)}:${pad(i % 60, 2)}:`);
    seconds = Array.from({ length: 60_000 }, (_, i) => `${pad(Math.floor(i / 1000), 2)}.${pad(i % 1000, 3)}Z`);
  }
  return [minutes, seconds];
}

/** The instant as `YYYY-MM-DDTHH:mm:ss.SSSZ`. */
export function isoUtc(ms: number): string {
  if (!(ms >= 0 && ms < MAX) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const [mins, secs] = tables();
  const day = Math.floor(ms / DAY);
  let prefix = days.get(day);
  if (prefix === undefined) {
    if (days.size >= 20_000) days.clear();
    prefix = new Date(day * DAY).toISOString().slice(0, 11);
    days.set(day, prefix);
  }
  const rest = ms - day * DAY;
  const minute = Math.floor(rest / 60_000);
  return prefix + mins[minute]! + secs[rest - minute * 60_000]!;
}
