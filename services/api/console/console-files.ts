/**
 * The console's built files (services/console/build.ts writes them to dist/), held in memory by
 * every API process: `index.html` and the files under `assets/`, each with a strong validator
 * and, for text, gzip and brotli variants made once, on the first request that accepts them (on
 * libuv's threads, not the event loop), and kept.
 *
 * At start the console is built when dist/ is missing or older than its sources. A build that
 * fails, or a dist/ that cannot be read, does not stop the API: the console's URLs then answer
 * 503 `console.not_built` with the reason, and the log says why.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { buildConsole, consoleBuildStale } from '../../console/build.js';
import type { Logger } from '../../runtime/logger.js';

export type Coding = 'br' | 'gzip';

export interface ConsoleFile {
  type: string;
  body: Buffer;
  /** The ETag of the unencoded body; an encoded variant's adds `-br` or `-gz`. */
  tag: string;
  /** Text worth compressing (not images, not fonts). */
  compressible: boolean;
  /** The encoded variants, made on first use; null where encoding did not make it smaller. */
  encoded: Partial<Record<Coding, Promise<Buffer | null>>>;
}

export interface ConsoleFiles {
  page: ConsoleFile;
  /** By file name under `assets/` (the build writes them there, flat). */
  assets: ReadonlyMap<string, ConsoleFile>;
}

/** The console, or why it cannot be served. */
export type LoadedConsole = { ok: true; files: ConsoleFiles } | { ok: false; reason: string };

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.map', '.json', '.svg', '.txt']);

/**
 * Brotli's best quality (11) up to this size; above it quality 9, which a first visitor does not
 * wait for: on a 480 KiB chunk 11 took 1.1 s for 8 % less than 9's 0.1 s.
 */
const BROTLI_BEST_UP_TO = 128 * 1024;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

function fileOf(name: string, body: Buffer): ConsoleFile {
  const ext = extname(name).toLowerCase();
  return {
    type: TYPES[ext] ?? 'application/octet-stream',
    body,
    tag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    compressible: COMPRESSIBLE.has(ext),
    encoded: {},
  };
}

/** The variant of `file` in `coding`, made once; null when it would not be smaller. */
export function encodedVariant(file: ConsoleFile, coding: Coding): Promise<Buffer | null> {
  return (file.encoded[coding] ??= (
    coding === 'br'
      ? brotli(file.body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: file.body.length <= BROTLI_BEST_UP_TO ? 11 : 9,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: file.body.length,
          },
        })
      : gzipped(file.body, { level: 9 })
  ).then((encoded) => (encoded.length < file.body.length ? encoded : null)));
}

/**
 * Reads `index.html` and `assets/*` of a built console. Throws when the page names an asset that
 * is not there (a dist/ another process is rebuilding).
 */
export function readConsoleFiles(dir: string): ConsoleFiles {
  const page = fileOf('index.html', readFileSync(join(dir, 'index.html')));
  const assets = new Map<string, ConsoleFile>();
  for (const entry of readdirSync(join(dir, 'assets'), { withFileTypes: true })) {
    if (entry.isFile()) assets.set(entry.name, fileOf(entry.name, readFileSync(join(dir, 'assets', entry.name))));
  }
  for (const [, name] of page.body.toString('utf8').matchAll(/(?:src|href)="\/assets\/([^"]+)"/g)) {
    if (!assets.has(name!)) throw new Error(`index.html names assets/${name}, which is missing`);
  }
  return { page, assets };
}

/** One build at a time in this process (two platforms of a test share it). */
let building: Promise<void> | undefined;

async function buildIfStale(logger: Logger): Promise<void> {
  if (!consoleBuildStale()) return;
  building ??= (async () => {
    const started = performance.now();
    try {
      const built = await buildConsole();
      logger.info({ script: built.script, ms: Math.round(performance.now() - started) }, 'console built');
    } finally {
      building = undefined;
    }
  })();
  await building;
}

const READ_ATTEMPTS = 20;
const READ_RETRY_MS = 250;

/**
 * The console from `dir`, built first when `build` and it is stale. A dist/ being rebuilt
 * meanwhile by another process (tests run several) is read again, for up to five seconds.
 */
export async function loadConsole(options: { dir: string; build: boolean; logger: Logger }): Promise<LoadedConsole> {
  const { logger } = options;
  let buildFailure: string | undefined;
  /** Whether reading again may help: not after the sources failed to compile, which leaves dist/ empty. */
  let attempts = READ_ATTEMPTS;
  if (options.build) {
    try {
      await buildIfStale(logger);
    } catch (error) {
      // esbuild's BuildFailure lists what did not compile; other failures are I/O, perhaps a race.
      const first = (error as { errors?: Array<{ text: string; location: { file: string; line: number } | null }> }).errors?.[0];
      buildFailure = first ? `${first.location ? `${first.location.file}:${first.location.line}: ` : ''}${first.text}` : (error as Error).message;
      if (first) attempts = 1;
      logger.error({ err: error }, 'the console could not be built; serving what dist/ holds, if anything');
    }
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, files: readConsoleFiles(options.dir) };
    } catch (error) {
      if (attempt >= attempts) {
        const reason = buildFailure !== undefined ? `its build failed (${buildFailure})` : `its files cannot be read (${(error as Error).message})`;
        logger.error({ err: error, dir: options.dir }, 'the console is not served');
        return { ok: false, reason };
      }
      await new Promise((resolve) => setTimeout(resolve, READ_RETRY_MS));
    }
  }
}
