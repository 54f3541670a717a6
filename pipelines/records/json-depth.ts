/**
 * How deep a JSON text nests. JSON.parse takes any depth, but what reads the value afterwards
 * recurses — JSON.stringify, schema checks, trigger field reads — and overflows the stack near
 * 10 000 levels (a 500, or a batch that cannot be stored). No real record or request needs more
 * than a few levels, so deeper texts are refused up front, naming the limit (issue #15).
 */
export const MAX_JSON_DEPTH = 64;

/** Whether arrays and objects in `text` nest deeper than `max` (brackets inside strings do not count). */
export function jsonNestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  // Each level takes an opening and a closing bracket: a short text cannot be deep (most records).
  if (text.length <= 2 * max + 1) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}
