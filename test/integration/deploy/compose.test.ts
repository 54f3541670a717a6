/**
 * Issue #16: docker-compose.yml is checked without Docker. Images are pinned to one release, each
 * healthcheck runs a tool its image has, every engine keeps its data in a named volume, the
 * platform services get only documented, parsed variables, the admin token is required, and NATS
 * takes the ingress's largest batch. The file is valid against the Compose Specification's JSON
 * schema, the one docker compose (compose-go) checks every file against before anything else, and
 * its references resolve (what compose checks next); `docker compose config` runs as well where
 * the plugin exists. Neither needs a tool that can be missing: Debian bookworm has no compose v2,
 * and its docker-compose 1.29 predates fields the file uses (`configs.*.content`).
 */
import { spawnSync } from 'node:child_process';
import t from 'tap';
import Schema from 'typebox/schema';
import {
  type ComposeService,
  environmentOf,
  envSchemaNames,
  familiesOf,
  ingressBatchMaxBytes,
  loadCompose,
  natsConfValue,
  natsSizeBytes,
  pinnedImage,
  platformServiceNames,
  readmeConfigNames,
  readRepoFile,
  repoRoot,
} from './deploy-kit.js';

const compose = loadCompose();
const services = Object.entries(compose.services);
const platform = platformServiceNames(compose);
const engines = services.filter(([, s]) => s.build === undefined);

/** The long and short volume syntaxes as (source, target). */
function mounts(service: ComposeService): Array<{ source: string | undefined; target: string | undefined }> {
  return (service.volumes ?? []).map((v) => {
    if (typeof v !== 'string') return { source: v.source, target: v.target };
    const [source, target] = v.split(':');
    return target === undefined ? { source: undefined, target: source } : { source, target };
  });
}

t.test('the compose file has the four platform services and the three engines', async (t) => {
  t.same(platform.sort(), ['api', 'event-worker', 'ingress', 'sla-worker']);
  t.same(engines.map(([name]) => name).sort(), ['clickhouse', 'nats', 'redis']);
});

t.test('every service is built here or runs an image pinned to one release', async (t) => {
  for (const [name, s] of services) {
    if (s.build !== undefined) continue;
    t.ok(s.image, `${name} has an image or a build`);
    t.match(s.image ?? '', pinnedImage, `${name}: ${s.image} names a full version (no floating tag)`);
  }
});

t.test('every healthcheck runs a command its image has', async (t) => {
  for (const [name, s] of services) {
    const test = s.healthcheck?.test;
    if (test === undefined || s.healthcheck?.disable) continue;
    t.ok(s.image, `${name}: a healthcheck on a built image would need its own table entry`);
    const { product, tools } = familiesOf(s.image ?? '');
    t.ok(product, `${name}: the image ${s.image} is in the table of image families (deploy-kit.ts)`);
    const words = typeof test === 'string' ? ['CMD-SHELL', test] : test;
    const [kind, ...rest] = words;
    t.ok(kind === 'CMD' || kind === 'CMD-SHELL', `${name}: healthcheck form ${kind}`);
    const binaries = kind === 'CMD-SHELL' ? ['sh', rest.join(' ').trim().split(/\s+/)[0]!] : [rest[0]!];
    for (const binary of binaries) t.ok(tools.has(binary), `${name}: ${binary} is in ${s.image} (has ${[...tools].join(', ')})`);
  }
  t.ok(compose.services['nats']?.healthcheck, 'nats has a healthcheck');
  t.ok(compose.services['redis']?.healthcheck, 'redis has a healthcheck');
  t.ok(compose.services['clickhouse']?.healthcheck, 'clickhouse has a healthcheck');
});

t.test('every engine keeps its data directory in a named volume', async (t) => {
  const named = new Set(Object.keys(compose.volumes ?? {}));
  for (const [name, s] of engines) {
    const dataDir = familiesOf(s.image ?? '').product?.dataDir;
    t.ok(dataDir, `${name}: its image family says where the data lives`);
    const mount = mounts(s).find((m) => m.target === dataDir);
    t.ok(mount, `${name}: ${dataDir} is mounted`);
    t.ok(mount?.source && named.has(mount.source), `${name}: ${dataDir} is on a named volume (${mount?.source ?? 'none'})`);
  }
});

t.test('NATS runs its mounted configuration: JetStream on the volume, max_payload above the largest batch', async (t) => {
  const nats = compose.services['nats']!;
  const command = Array.isArray(nats.command) ? nats.command : String(nats.command ?? '').split(/\s+/);
  const path = command[command.indexOf('-c') + 1];
  t.ok(command.includes('-c') && path, 'nats is started with -c <file>');
  const mounted = (nats.configs ?? []).find((c) => typeof c !== 'string' && c.target === path);
  t.ok(mounted && typeof mounted !== 'string', `a compose config is mounted at ${path}`);
  const source = mounted && typeof mounted !== 'string' ? mounted.source : '';
  const conf = compose.configs?.[source]?.content;
  t.ok(conf, `config ${source} has inline content`);
  t.equal(natsConfValue(conf ?? '', 'store_dir'), familiesOf(nats.image ?? '').product?.dataDir, 'JetStream stores on the data volume');
  const maxPayload = natsConfValue(conf ?? '', 'max_payload');
  t.ok(maxPayload, 'max_payload is set (NATS defaults to 1 MB)');
  const ingressEnv = environmentOf(compose.services['ingress']!);
  const batchBytes = ingressBatchMaxBytes(ingressEnv);
  t.ok(natsSizeBytes(maxPayload ?? '0') >= batchBytes, `max_payload ${maxPayload} = ${natsSizeBytes(maxPayload ?? '0')} bytes takes the ingress's ${batchBytes}-byte batches`);
});

t.test('the platform services get only documented variables the environment schema parses', async (t) => {
  const documented = readmeConfigNames();
  const parsed = envSchemaNames();
  t.ok(documented.size >= 10, `the README table lists the variables (${documented.size})`);
  t.same([...documented].sort(), [...parsed].sort(), 'the README table and the schema list the same variables');
  for (const name of platform) {
    const env = Object.keys(environmentOf(compose.services[name]!));
    t.ok(env.length > 0, `${name} has an environment`);
    t.same(
      env.filter((v) => !documented.has(v)),
      [],
      `${name}: every variable is in the README's configuration table`,
    );
    t.same(
      env.filter((v) => !parsed.has(v)),
      [],
      `${name}: every variable is in schemas/env.schema.ts`,
    );
  }
});

t.test('the admin token has no default: compose refuses to start without it', async (t) => {
  for (const name of platform) {
    const token = environmentOf(compose.services[name]!)['OPS_ADMIN_TOKEN'];
    t.match(token ?? '', /^\$\{OPS_ADMIN_TOKEN:\?[^}]+\}$/, `${name}: OPS_ADMIN_TOKEN is \${OPS_ADMIN_TOKEN:?message}`);
  }
});

/**
 * The Compose Specification's schema (compose-spec/compose-spec schema/compose-spec.json, vendored
 * in test/fixtures/deploy with its commit), compiled by TypeBox's JSON Schema validator.
 */
const composeSpec = Schema.Compile(JSON.parse(readRepoFile('test/fixtures/deploy/compose-spec.json')));
const schemaErrors = (file: unknown): string[] => composeSpec.Errors(file)[1].map((e) => `${e.instancePath || '/'}: ${e.message}`);

t.test('the file is valid against the Compose Specification schema, as docker compose checks it', async (t) => {
  t.equal(composeSpec.Schema()['title'], 'Compose Specification');
  t.same(schemaErrors(compose), [], 'docker-compose.yml, its `<<` merges applied: no error');
  // The check can fail: each change below is one docker compose refuses.
  const misspelled = structuredClone(compose) as any;
  misspelled.services.redis.volume = misspelled.services.redis.volumes;
  t.match(schemaErrors(misspelled), [/^\/services\/redis\/volume: /], 'a misspelled service key is refused');
  const wrongType = structuredClone(compose) as any;
  wrongType.services.api.ports = '8080:8080';
  t.ok(
    schemaErrors(wrongType).some((e) => e.startsWith('/services/api/ports: ')),
    'ports as a string (not a list) is refused',
  );
  const condition = structuredClone(compose) as any;
  condition.services.api.depends_on.nats.condition = 'service_up';
  t.ok(
    schemaErrors(condition).some((e) => e.startsWith('/services/api/depends_on/nats/condition: ')),
    'an unknown depends_on condition is refused',
  );
  const config = structuredClone(compose) as any;
  config.configs['nats-conf'] = { contents: config.configs['nats-conf'].content };
  t.ok(
    schemaErrors(config).some((e) => e.startsWith('/configs/nats-conf')),
    'a config with `contents` for `content` is refused',
  );
});

t.test('every reference resolves: dependencies are services, named volumes and configs are declared', async (t) => {
  const declaredVolumes = new Set(Object.keys(compose.volumes ?? {}));
  const declaredConfigs = new Set(Object.keys(compose.configs ?? {}));
  for (const [name, s] of services) {
    const dependsOn = s.depends_on ?? [];
    for (const dependency of Array.isArray(dependsOn) ? dependsOn : Object.keys(dependsOn))
      t.ok(compose.services[dependency], `${name} depends on ${dependency}, a service of the file`);
    // A source that is not a path (./, /, ~) names a volume, which must be declared.
    for (const { source } of mounts(s))
      if (source !== undefined && !/^[./~]/.test(source)) t.ok(declaredVolumes.has(source), `${name}: volume ${source} is declared under volumes`);
    for (const c of s.configs ?? []) {
      const source = typeof c === 'string' ? c : c.source;
      t.ok(declaredConfigs.has(source), `${name}: config ${source} is declared under configs`);
    }
  }
});

// docker compose itself, where the plugin is installed (it is not on Debian bookworm; the checks
// above stand for it there, so nothing is skipped).
const composePlugin = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' }).status === 0;
t.test('docker compose config accepts the file, where the plugin is installed', async (t) => {
  if (!composePlugin) {
    t.comment('the docker compose plugin is not installed (`docker compose version` fails): the schema check above stands for it');
    return;
  }
  const checked = spawnSync('docker', ['compose', '-f', 'docker-compose.yml', 'config', '-q'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, OPS_ADMIN_TOKEN: 'compose-config-check-0123456789' },
  });
  t.equal(checked.status, 0, `docker compose config: ${checked.stdout}${checked.stderr}`);
});
