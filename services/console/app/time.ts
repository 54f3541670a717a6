/**
 * Times as the console shows them: in the browser's time zone, or in UTC when the user switches
 * (kept in localStorage); the UTC instant always in the element's title.
 */
import { signal } from '@preact/signals';

const KEY = 'ops.console.utc';
export const utc = signal(localStorage.getItem(KEY) === '1');

export function setUtc(on: boolean): void {
  utc.value = on;
  localStorage.setItem(KEY, on ? '1' : '0');
}

const formats = new Map<boolean, Intl.DateTimeFormat>();
function format(inUtc: boolean): Intl.DateTimeFormat {
  let f = formats.get(inUtc);
  if (!f) {
    f = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium', ...(inUtc ? { timeZone: 'UTC' } : {}) });
    formats.set(inUtc, f);
  }
  return f;
}

/** The instant as shown (reads `utc`, so a component using it follows the switch). */
export function showTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const text = format(utc.value).format(new Date(iso));
  return utc.value ? `${text} UTC` : text;
}

/** A duration in whole units: `3 d 4 h`, `12 min`, `40 s`. */
export function showDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const units: Array<[string, number]> = [
    ['d', 86_400],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ];
  const parts: string[] = [];
  let left = s;
  for (const [name, size] of units) {
    if (left >= size || (name === 's' && parts.length === 0)) {
      parts.push(`${Math.floor(left / size)} ${name}`);
      left %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}
