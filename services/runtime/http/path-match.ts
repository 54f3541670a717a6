/** True when `path` fits the uWebSockets.js pattern (`:name` matches one segment). */
export function matchPath(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return false;
  return want.every((segment, i) => (segment.startsWith(':') ? got[i] !== '' : segment === got[i]));
}
