/**
 * Bundles the console (services/console/app/main.tsx) with esbuild into `dist/`: ES modules split
 * per screen (heavier screens load on demand), file names with a content hash (served with a
 * year's cache), one stylesheet, and `index.html` naming them (served for every console URL, never
 * cached). Run by the API part at start when `dist/` is missing or older than the source, and by
 * `npm test` (`npm run build:console`).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const CONSOLE_DIR = dirname(fileURLToPath(import.meta.url));
export const DIST_DIR = join(CONSOLE_DIR, 'dist');
const SOURCE_DIRS = ['app', 'screens', 'components'];

export interface ConsoleBuild {
  /** Paths under dist/ of the entry script and stylesheet, e.g. `assets/main-3F2A.js`. */
  script: string;
  style: string | undefined;
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when dist/ is missing or older than a source file (or this script). */
export function consoleBuildStale(): boolean {
  let built: number;
  try {
    built = statSync(join(DIST_DIR, 'index.html')).mtimeMs;
  } catch {
    return true;
  }
  const sources = Math.max(statSync(fileURLToPath(import.meta.url)).mtimeMs, ...SOURCE_DIRS.map((d) => newestSource(join(CONSOLE_DIR, d))));
  return sources > built;
}

/** The chunks `output` imports statically, transitively: the browser would find them one level at a time. */
function staticImports(outputs: Record<string, { imports: Array<{ path: string; kind: string }> }>, output: string): string[] {
  const seen = new Set<string>();
  const visit = (path: string): void => {
    for (const i of outputs[path]?.imports ?? []) {
      if (i.kind !== 'import-statement' || seen.has(i.path)) continue;
      seen.add(i.path);
      visit(i.path);
    }
  };
  visit(output);
  return [...seen];
}

const indexHtml = (script: string, style: string | undefined, preloads: string[]): string =>
  [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Operations console</title>',
    '<link rel="icon" href="data:,">',
    style ? `<link rel="stylesheet" href="/${style}">` : '',
    `<script type="module" src="/${script}"></script>`,
    // The entry's chunks are fetched with it rather than after it is parsed.
    ...preloads.map((path) => `<link rel="modulepreload" href="/${path}">`),
    '</head>',
    '<body>',
    '<div id="app"></div>',
    '<noscript>The operations console needs JavaScript; the API is at /api/openapi.json.</noscript>',
    '</body>',
    '</html>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n');

export async function buildConsole(options: { minify?: boolean } = {}): Promise<ConsoleBuild> {
  const out = join(DIST_DIR, 'assets');
  rmSync(DIST_DIR, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const result = await build({
    entryPoints: [join(CONSOLE_DIR, 'app', 'main.tsx')],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    outdir: out,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    minify: options.minify ?? true,
    sourcemap: 'linked',
    metafile: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    loader: { '.svg': 'file', '.png': 'file' },
    logLevel: 'silent',
  });
  const outputs = Object.entries(result.metafile.outputs);
  const entry = outputs.find(([, o]) => o.entryPoint !== undefined && o.entryPoint.endsWith('main.tsx'));
  if (!entry) throw new Error('esbuild produced no entry script');
  const script = relative(DIST_DIR, entry[0]);
  const style = entry[1].cssBundle ? relative(DIST_DIR, entry[1].cssBundle) : undefined;
  const preloads = staticImports(result.metafile.outputs, entry[0]).map((path) => relative(DIST_DIR, path));
  writeFileSync(join(DIST_DIR, 'index.html'), indexHtml(script, style, preloads));
  // Names the build, so a test can tell one from another.
  writeFileSync(join(DIST_DIR, 'build.json'), JSON.stringify({ script, style, id: createHash('sha256').update(script).digest('hex').slice(0, 12) }));
  return { script, style };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const built = await buildConsole();
  console.log(`console built in ${Math.round(performance.now() - started)} ms: ${built.script}`);
}
