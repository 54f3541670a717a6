/**
 * NATS subject wildcards for the in-process bus, so that a stream or a filter captures exactly
 * what it would capture on JetStream: `*` is one token, `>` is one or more trailing tokens.
 */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    const token = p[i];
    if (token === '>') return s.length > i;
    if (i >= s.length) return false;
    if (token !== '*' && token !== s[i]) return false;
  }
  return p.length === s.length;
}

/** True when some subject matches both patterns (JetStream refuses streams that overlap). */
export function subjectsOverlap(a: string, b: string): boolean {
  const x = a.split('.');
  const y = b.split('.');
  for (let i = 0; i < x.length && i < y.length; i++) {
    const tx = x[i];
    const ty = y[i];
    if (tx === '>' || ty === '>') return true;
    if (tx !== ty && tx !== '*' && ty !== '*') return false;
  }
  return x.length === y.length;
}
