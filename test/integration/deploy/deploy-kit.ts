/**
 * What the deployment checks share (issue #16): the repository's files, the compose file, what
 * the engine images carry, NATS sizes, the documented and parsed environment, the metrics a
 * process really exposes, and promtool.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { EnvSchema } from '../../../schemas/env.schema.js';
import { loadConfig } from '../../../services/runtime/config.js';
import { createMetrics } from '../../../services/runtime/http/metrics.js';
import { binaryPath } from '../../support/services.js';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const repoPath = (relative: string): string => fileURLToPath(new URL(relative, new URL('../../../', import.meta.url)));
export const readRepoFile = (relative: string): string => readFileSync(repoPath(relative), 'utf8');

export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  volumes?: Array<string | { type?: string; source?: string; target?: string }>;
  configs?: Array<string | { source: string; target?: string }>;
  healthcheck?: { test?: string[] | string; disable?: boolean };
  depends_on?: string[] | Record<string, { condition?: string }>;
}
export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
  configs?: Record<string, { content?: string; file?: string }>;
}

/** docker-compose.yml as compose reads it: `<<` merge keys applied (the platform services use them). */
export function loadCompose(): ComposeFile {
  return parse(readRepoFile('docker-compose.yml'), { merge: true }) as ComposeFile;
}

/** The services built from this repository: the platform's own processes. */
export const platformServiceNames = (compose: ComposeFile): string[] =>
  Object.entries(compose.services)
    .filter(([, s]) => s.build !== undefined)
    .map(([name]) => name);

export function environmentOf(service: ComposeService): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) return Object.fromEntries(env.map((line) => [line.split('=')[0]!, line.slice(line.indexOf('=') + 1)]));
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

/**
 * What each engine image carries, for the healthchecks and the data directory its volume must
 * hold. Tools are what the images install (busybox in every *-alpine image; wget in
 * clickhouse-server's Ubuntu image, docker/server/Dockerfile.ubuntu); an image that matches no
 * product here is unknown and fails the checks until someone looks inside it.
 */
export interface ImageFamily {
  name: string;
  matches: RegExp;
  tools: readonly string[];
  /** Where the engine keeps what must survive a restart; undefined for a base layer. */
  dataDir?: string;
}
export const imageFamilies: readonly ImageFamily[] = [
  { name: 'alpine base', matches: /-alpine[\d.]*$/, tools: ['sh', 'wget'] },
  { name: 'nats', matches: /^nats:/, tools: ['nats-server'], dataDir: '/data' },
  { name: 'redis', matches: /^redis:/, tools: ['redis-server', 'redis-cli'], dataDir: '/data' },
  { name: 'clickhouse-server', matches: /^clickhouse\/clickhouse-server:/, tools: ['sh', 'bash', 'wget', 'clickhouse', 'clickhouse-client'], dataDir: '/var/lib/clickhouse' },
];
export function familiesOf(image: string): { product: ImageFamily | undefined; tools: Set<string> } {
  const matching = imageFamilies.filter((f) => f.matches.test(image));
  return { product: matching.find((f) => f.dataDir !== undefined), tools: new Set(matching.flatMap((f) => f.tools)) };
}

/** A tag naming one release: major.minor.patch (and ClickHouse's build number), or a digest. */
export const pinnedImage = /^[a-z0-9][a-z0-9./_-]*:\d+\.\d+\.\d+(?:\.\d+)?(?:-[a-z0-9.]+)?(?:@sha256:[0-9a-f]{64})?$|@sha256:[0-9a-f]{64}$/;

/** A top-level `key: value` of a NATS configuration file (the platform's is flat apart from blocks). */
export function natsConfValue(conf: string, key: string): string | undefined {
  return new RegExp(`^\\s*${key}\\s*[:=]\\s*(\\S+?)\\s*$`, 'm').exec(conf)?.[1];
}

/**
 * A NATS size in bytes. nats-server's configuration parser reads k/m/g as powers of 1000 and
 * kb/mb/gb (and ki/mi/gi, kib/mib/gib) as powers of 1024, case-insensitively (conf/parse.go).
 */
export function natsSizeBytes(value: string): number {
  const m = /^(\d+)\s*(k|kb|ki|kib|m|mb|mi|mib|g|gb|gi|gib)?$/i.exec(value.trim().replace(/^"|"$/g, ''));
  if (!m) throw new Error(`not a NATS size: ${value}`);
  const unit = (m[2] ?? '').toLowerCase();
  const power = { '': 0, k: 1, m: 2, g: 3 }[unit[0] ?? ''] ?? 0;
  const base = unit.length > 1 ? 1024 : 1000;
  return Number(m[1]) * base ** power;
}

/**
 * The ingress's bytes per bus message with this environment: the config code's default unless
 * set. Only that variable goes to the parser: the others may hold `${…}` interpolations.
 */
export function ingressBatchMaxBytes(env: Record<string, string> = {}): number {
  const set = env['OPS_BATCH_MAX_BYTES'];
  return loadConfig(set === undefined ? {} : { OPS_BATCH_MAX_BYTES: set }).batching.maxBytes;
}

/** The variables the environment schema parses (schemas/env.schema.ts). */
export const envSchemaNames = (): Set<string> => new Set(Object.keys(EnvSchema.properties));

/** The variables the README's configuration table documents. */
export function readmeConfigNames(): Set<string> {
  const readme = readRepoFile('README.md');
  const start = readme.indexOf('\n## Configuration');
  if (start < 0) throw new Error('README has no "## Configuration" section');
  const section = readme.slice(start + 1, readme.indexOf('\n## ', start + 1));
  return new Set([...section.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/gm)].map((m) => m[1]!));
}

/**
 * Every series name a platform process exposes: its own metrics and prom-client's default
 * process and Node.js ones, read from the registry the processes use (histograms expand to
 * their _bucket, _sum and _count series).
 */
export async function exposedSeriesNames(): Promise<Set<string>> {
  const metrics = await createMetrics().registry.getMetricsAsJSON();
  const names = new Set<string>();
  for (const m of metrics) {
    // prom-client declares `type` as a numeric enum but reports 'counter', 'histogram', ….
    const type = String(m.type);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(m.name + suffix);
    else if (type === 'summary') for (const suffix of ['', '_sum', '_count']) names.add(m.name + suffix);
    else names.add(m.name);
  }
  return names;
}

const promqlKeywords = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'inf', 'nan']);

/**
 * The metric names a PromQL expression selects. Strings, label matchers, label lists and ranges
 * are dropped first; what is left and is neither a function (followed by `(`) nor a keyword is a
 * metric name. promtool checks the syntax; this only needs to find the selectors.
 */
export function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\boffset\s+-?[0-9a-z]+/g, ' ');
  const names = new Set<string>();
  for (const m of stripped.matchAll(/(?<![\w.:])[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const isFunction = /^\s*\(/.test(stripped.slice(m.index + m[0].length));
    if (!isFunction && !promqlKeywords.has(m[0].toLowerCase())) names.add(m[0]);
  }
  return [...names];
}

/**
 * A tool a deployment check runs: its path, or why the check is skipped (`skip`, for tap). Under
 * REQUIRE_SERVICES=1 (CI) a missing tool throws instead, as services.ts' missingServices does:
 * CI never skips a check for want of a tool. `install` says how to get it.
 */
export function requiredTool(name: string, install: string): { path: string | undefined; skip: string | false } {
  const path = binaryPath(name);
  if (path) return { path, skip: false };
  const reason = `${name} not installed (${install})`;
  if (process.env['REQUIRE_SERVICES'] === '1') throw new Error(`REQUIRE_SERVICES=1 but ${reason}`);
  return { path, skip: reason };
}

/** promtool (Debian's `prometheus` package), as metrics-lint.test.ts finds it. */
export const promtool = (): { path: string | undefined; skip: string | false } => requiredTool('promtool', 'apt-get install -y prometheus');
