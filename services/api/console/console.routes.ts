/**
 * The web console's files on the API's HTTP server (DESIGN §11), outside the OpenAPI document:
 *
 * - `/assets/<file>`: the bundle's scripts, stylesheet and files; their names carry a content
 *   hash, so they are cached for a year (`immutable`); a missing one is 404.
 * - `index.html` for `/` and every console URL: any GET of a path outside `/api/`, `/assets/`,
 *   `/metrics`, `/healthz` and `/readyz` whose last segment has no file extension, so deep links
 *   (`/problems/<id>`, `/cmdb/ci/5`) load the console, which routes them. Revalidated on every
 *   load (`no-cache`), so a new build reaches browsers at once.
 *
 * Each answer is gzip or brotli encoded when the request accepts it, carries an ETag (a matching
 * If-None-Match gets 304), and a Content-Security-Policy that allows no inline script or style.
 */
import { fail, type AppError } from '../../../schemas/errors.js';
import { defineRoute, type Reply, type Request, type Route } from '../../runtime/http/route.js';
import { type Coding, type ConsoleFile, encodedVariant, type LoadedConsole } from './console-files.js';

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** On every answer of the console, errors included. */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

const PAGE_CACHE = 'no-cache';
const ASSET_CACHE = 'public, max-age=31536000, immutable';

const NOT_CONSOLE = /^\/(?:api|assets|metrics|healthz|readyz)(?:\/|$)/;
/** A console URL: not the API's or the assets', and no file extension in its last segment. */
export const isConsolePath = (path: string): boolean => !NOT_CONSOLE.test(path) && !/\.[^/]*$/.test(path);

/**
 * The codings the request accepts, best first (brotli before gzip at equal weight), from its
 * Accept-Encoding (RFC 9110 §12.5.3: a coding with q=0 is refused; `*` stands for the others).
 */
export function acceptedCodings(header: string | undefined): Coding[] {
  if (!header) return [];
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name) weights.set(name.trim(), q === undefined ? 1 : Number(q) || 0);
  }
  const any = weights.get('*') ?? 0;
  return (['br', 'gzip'] as const)
    .map((coding, order) => ({ coding, order, q: weights.get(coding) ?? (coding === 'gzip' ? (weights.get('x-gzip') ?? any) : any) }))
    .filter((c) => c.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order)
    .map((c) => c.coding);
}

/** True when If-None-Match names `tag` (weak comparison, RFC 9110 §13.1.2), or is `*`. */
function notModified(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === tag);
}

const CODING_SUFFIX: Record<Coding, string> = { br: '-br', gzip: '-gz' };

function reply(file: ConsoleFile, request: Request, cache: string, body: Buffer, coding: Coding | undefined): Reply {
  const tag = coding ? `${file.tag.slice(0, -1)}${CODING_SUFFIX[coding]}"` : file.tag;
  const headers: Record<string, string> = { ...CONSOLE_HEADERS, 'content-type': file.type, 'cache-control': cache, etag: tag };
  if (file.compressible) headers['vary'] = 'Accept-Encoding';
  if (notModified(request.headers['if-none-match'], tag)) return { status: 304, headers };
  if (coding) headers['content-encoding'] = coding;
  return { status: 200, headers, body };
}

/** `file` in the best coding the request accepts that makes it smaller. */
async function encodedReply(file: ConsoleFile, request: Request, cache: string, codings: Coding[]): Promise<Reply> {
  for (const coding of codings) {
    const encoded = await encodedVariant(file, coding);
    if (encoded) return reply(file, request, cache, encoded, coding);
  }
  return reply(file, request, cache, file.body, undefined);
}

function answer(file: ConsoleFile, request: Request, cache: string): Reply | Promise<Reply> {
  const codings = file.compressible ? acceptedCodings(request.headers['accept-encoding']) : [];
  return codings.length === 0 ? reply(file, request, cache, file.body, undefined) : encodedReply(file, request, cache, codings);
}

const withConsoleHeaders = (error: AppError): AppError => error.withHeaders(CONSOLE_HEADERS);

export function consoleRoutes(loaded: LoadedConsole): Route[] {
  const files = (): LoadedConsole & { ok: true } => {
    if (!loaded.ok) throw withConsoleHeaders(fail('console.not_built', { reason: loaded.reason }));
    return loaded;
  };
  const base = { tags: ['console'], hidden: true };
  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: '/',
      name: 'console.page',
      summary: "The console's page, for / and every console URL",
      fallback: isConsolePath,
      schema: { responses: { 200: { description: 'index.html', contentType: 'text/html' } } },
      handler: (request) => answer(files().files.page, request, PAGE_CACHE),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: '/assets/:file',
      name: 'console.asset',
      summary: "One of the console's built files",
      schema: { responses: { 200: { description: 'The file' }, 404: { description: 'No such file' } } },
      handler: (request) => {
        const file = files().files.assets.get(request.params['file'] ?? '');
        if (!file) throw withConsoleHeaders(fail('console.file_not_found', { path: request.path }));
        return answer(file, request, ASSET_CACHE);
      },
    }),
  ];
}
