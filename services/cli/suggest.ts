/**
 * "Did you mean": the words nearest to a mistyped one (issue #37). Near is an edit distance
 * (insert, delete, replace, or swap two neighbours: `trigers`, `tirggers`, `triggerz`) of at most
 * 1 for a word of up to 4 letters and 2 for a longer one, or the word being the start of exactly
 * one candidate (`notif`). Only the nearest are named, so `ops rols` does not also offer `tokens`.
 */

/** Optimal string alignment distance: Levenshtein plus the swap of two neighbouring letters. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/** Words longer than this are not compared: a typo is short, and the table grows with the product. */
const LONGEST = 64;

/** The candidates nearest to `word`, in the candidates' order; empty when none is near. */
export function nearest(word: string, candidates: readonly string[]): string[] {
  const typed = word.toLowerCase();
  if (typed.length === 0 || typed.length > LONGEST) return [];
  const limit = typed.length <= 4 ? 1 : 2;
  let best = limit;
  let found: string[] = [];
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate.toLowerCase());
    if (distance > best) continue;
    if (distance < best) found = [];
    best = distance;
    found.push(candidate);
  }
  if (found.length > 0) return found;
  const started = typed.length >= 3 ? candidates.filter((c) => c.toLowerCase().startsWith(typed)) : [];
  return started.length === 1 ? started : [];
}

/** `; did you mean "triggers"?` (or `"roles" or "tokens"`), or nothing when no word is near. */
export function didYouMean(word: string, candidates: readonly string[], quote: (candidate: string) => string = (c) => JSON.stringify(c)): string {
  const found = nearest(word, candidates).map(quote);
  if (found.length === 0) return '';
  return `; did you mean ${found.length === 1 ? found[0]! : `${found.slice(0, -1).join(', ')} or ${found.at(-1)!}`}?`;
}
