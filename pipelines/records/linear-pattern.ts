/**
 * The regular expressions users give (trigger `regex` conditions, a stream's text parser), matched
 * by a linear-time engine so that no pattern and no record can hold the event loop (DESIGN §11,
 * issue #34). The rule, stated once (README "Limits" and docs/streams-and-triggers.md copy it):
 *
 * - Syntax and semantics are RE2's (https://github.com/google/re2/wiki/Syntax), run by re2js, a
 *   pure JavaScript port of RE2: no backtracking, so `(a+)+$` costs what `a+$` costs. Named
 *   groups are written `(?<name>…)` or `(?P<name>…)`; flags inline (`(?i)`, `(?s)`, `(?m)`).
 *   What RE2 has no linear-time way to do is refused when the pattern is saved (400 naming the
 *   field and why): backreferences (`\1`, `\k<n>`), lookahead and lookbehind, possessive `a++`,
 *   and JavaScript-only escapes (`\uFFFF` is written `\x{FFFF}`, `\cA` is `\x01`). `\d`, `\w`,
 *   `\s` and `\b` are ASCII, as in RE2; `.` does not match `\n` without `(?s)`.
 * - A pattern is at most MAX_PATTERN_CHARS characters and compiles to at most
 *   MAX_PATTERN_PROGRAM instructions (counted repetitions multiply: `[a-z]{1,64}` is 64+).
 * - Linear time is not yet a bound: RE2's worst case is (program size) × (text length) steps.
 *   So a value is matched on its first `matchWindow(program)` characters, MATCH_WORK / program
 *   size, at most MAX_MATCH_TEXT (a 40-instruction pattern sees 6 553 characters, one of 512
 *   sees 512). A trigger condition tests that prefix; a parser pattern dead-letters a text
 *   record longer than its window (cutting it would store fields cut short).
 *   Measured (bench/results/event-loop.md): the worst patterns found take about 25–70 ms on a
 *   first, cold call and a few ms warm, on the 2-core machine; typical ones microseconds.
 * - A pattern saved before these rules that RE2 refuses never matches (a trigger condition is
 *   false; a parser dead-letters the stream's text records, naming the reason).
 */
import { RE2JS } from 're2js';

export const MAX_PATTERN_CHARS = 1000;
export const MAX_PATTERN_PROGRAM = 512;
/** Program instructions × text characters one match may cost at most (see the file comment). */
export const MATCH_WORK = 262_144;
export const MAX_MATCH_TEXT = 65_536;

export interface LinearPattern {
  readonly source: string;
  /** Characters of a value that are matched: the first `window`. */
  readonly window: number;
  /** Whether the pattern matches somewhere in the value's first `window` characters. */
  test(text: string): boolean;
  /** The named groups of the first match (undefined where a group took no part), null when none; the text must fit the window. */
  groups(text: string): Record<string, string | undefined> | null;
  readonly groupNames: readonly string[];
}

export type PatternCompile = { ok: true; pattern: LinearPattern } | { ok: false; reason: string };

/** The characters of a value a pattern of `program` instructions is matched on. */
export const matchWindow = (program: number): number => Math.min(MAX_MATCH_TEXT, Math.floor(MATCH_WORK / Math.max(1, program)));

/** Why RE2 refuses what JavaScript would take, in the user's words. */
function hint(source: string): string {
  if (/\\[1-9]|\\k</.test(source)) return ' (backreferences cannot be matched in linear time)';
  if (/\(\?<?[=!]/.test(source)) return ' (lookahead and lookbehind cannot be matched in linear time)';
  if (/\\u[0-9a-fA-F{]/.test(source)) return ' (write \\x{FFFF} for a code point)';
  if (/[*+?}]\+/.test(source)) return ' (possessive quantifiers are not RE2 syntax)';
  return '';
}

/** The pattern, or why it is refused (a sentence that completes "is not accepted: …"). Never throws. */
export function compileLinearPattern(source: string): PatternCompile {
  if (source.length > MAX_PATTERN_CHARS) return { ok: false, reason: `it has ${source.length} characters; the limit is ${MAX_PATTERN_CHARS}` };
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source);
  } catch (error) {
    const message = (error as Error).message.replace(/^error parsing regexp: /, '');
    return { ok: false, reason: `it is not RE2 syntax: ${message}${hint(source)}` };
  }
  const program = compiled.programSize();
  if (program > MAX_PATTERN_PROGRAM) {
    return { ok: false, reason: `it compiles to ${program} instructions; the limit is ${MAX_PATTERN_PROGRAM} (counted repetitions such as {1,64} multiply)` };
  }
  const window = matchWindow(program);
  const groupNames = Object.keys(compiled.namedGroups());
  return {
    ok: true,
    pattern: {
      source,
      window,
      groupNames,
      test: (text) => compiled.test(text.length > window ? text.slice(0, window) : text),
      groups(text) {
        if (text.length > window) throw new RangeError(`text of ${text.length} characters is longer than the pattern's window of ${window}`);
        const match = compiled.exec(text) as (RegExpExecArray & { groups?: Record<string, string | undefined> }) | null;
        if (match === null) return null;
        const out: Record<string, string | undefined> = {};
        for (const name of groupNames) out[name] = match.groups?.[name] ?? undefined;
        return out;
      },
    },
  };
}
