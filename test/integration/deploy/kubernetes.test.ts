/**
 * Issue #16: deploy/kubernetes is the compose topology on Kubernetes. Every document is checked
 * against the Kubernetes OpenAPI schema of its apiVersion/kind (kubernetes-models), with unknown
 * fields refused too; the workloads run compose's commands with compose's variables, probe the
 * platform's real system routes, keep engine data on volumes and read secrets from Secrets that
 * are documented, never committed. `kubectl kustomize` renders the set: skipped where kubectl is
 * missing, a failure then under REQUIRE_SERVICES=1 (CI). It needs kubectl 1.21 or later: the
 * `labels` field of kustomization.yaml is kustomize v4's, and kubectl 1.20 (Debian bookworm's
 * kubernetes-client), which embeds kustomize v2.0.3, refuses it (`json: unknown field "labels"`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import * as models from 'kubernetes-models';
import t, { type Test } from 'tap';
import { parse, parseAllDocuments } from 'yaml';
import { systemRoutes } from '../../../services/runtime/http/system.routes.js';
import { loadConfig } from '../../../services/runtime/config.js';
import { createMetrics } from '../../../services/runtime/http/metrics.js';
import {
  environmentOf,
  familiesOf,
  ingressBatchMaxBytes,
  loadCompose,
  natsConfValue,
  natsSizeBytes,
  pinnedImage,
  platformServiceNames,
  readRepoFile,
  repoPath,
  requiredTool,
} from './deploy-kit.js';

type Json = Record<string, any>;
interface Manifest {
  file: string;
  doc: Json;
}

// Looked up before any test is queued: under REQUIRE_SERVICES=1 a missing kubectl fails the file at once.
const kubectl = requiredTool('kubectl', "kubectl 1.21 or later; Debian bookworm's kubernetes-client is 1.20, whose kustomize refuses `labels`");

const dir = 'deploy/kubernetes/';
const kustomization = parse(readRepoFile(`${dir}kustomization.yaml`)) as {
  resources: string[];
  namespace?: string;
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
};
const present = kustomization.resources.filter((file) => existsSync(repoPath(dir + file)));
const manifests: Manifest[] = present.flatMap((file) =>
  parseAllDocuments(readRepoFile(dir + file)).map((d) => {
    if (d.errors.length > 0) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`);
    return { file, doc: d.toJS() as Json };
  }),
);
const ofKind = (kind: string): Json[] => manifests.filter((m) => m.doc['kind'] === kind).map((m) => m.doc);
const named = (kind: string, name: string): Json | undefined => ofKind(kind).find((d) => d['metadata']?.['name'] === name);
const workloads = (): Json[] => [...ofKind('Deployment'), ...ofKind('StatefulSet')];
const containerOf = (workload: Json): Json => workload['spec']['template']['spec']['containers'][0];

const compose = loadCompose();
const platform = platformServiceNames(compose);
const engines = Object.keys(compose.services).filter((name) => !platform.includes(name));

/** The kubernetes-models class for an apiVersion/kind: `apps/v1` → models.apps.v1, `v1` → models.v1. */
function modelFor(apiVersion: string, kind: string): (new (data: Json) => { validate(): void }) | undefined {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const all = models as unknown as Record<string, Record<string, any>>;
  const namespace = group === '' ? all['v1'] : all[group!.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase())]?.[version!];
  return namespace?.[kind];
}

/**
 * Fields the schema does not know. kubernetes-models' validators (compiled JSON Schema) accept
 * unknown properties, so a misspelled `readinessprobe` would pass `.validate()` and be dropped by
 * the API server. The compiled validators read every property their schema names, maps included;
 * so the object is validated through proxies that record each read, and the keys never read are
 * the ones the schema does not have.
 */
function validateStrictly(Model: new (data: Json) => { validate(): void }, doc: Json): string[] {
  const instance = new Model(doc);
  const read = new WeakMap<object, Set<PropertyKey>>();
  const proxies = new WeakMap<object, object>();
  const wrap = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const cached = proxies.get(value);
    if (cached) return cached;
    const keys = new Set<PropertyKey>();
    read.set(value, keys);
    const proxy = new Proxy(value, {
      get(target, key, receiver) {
        keys.add(key);
        return wrap(Reflect.get(target, key, receiver));
      },
    });
    proxies.set(value, proxy);
    return proxy;
  };
  (Model.prototype.validate as (this: unknown) => void).call(wrap(instance));
  const unknown: string[] = [];
  const walk = (value: unknown, path: string): void => {
    if (value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) walk(v, `${path}[${i}]`);
      return;
    }
    const keys = read.get(value);
    for (const [key, child] of Object.entries(value)) {
      if (!keys?.has(key)) unknown.push(`${path}.${key}`);
      else walk(child, `${path}.${key}`);
    }
  };
  walk(instance, doc['kind']);
  return unknown;
}

t.test('kustomization.yaml lists every manifest of the directory, and each exists', async (t) => {
  t.same(
    kustomization.resources.filter((file) => !present.includes(file)),
    [],
    'every listed resource exists',
  );
  const onDisk = readdirSync(repoPath(dir)).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml');
  t.same(onDisk.filter((f) => !kustomization.resources.includes(f)).sort(), [], 'every manifest is listed');
  t.equal(kustomization.namespace, 'ops-platform');
  t.ok(named('Namespace', kustomization.namespace ?? ''), 'the namespace is created');
});

t.test('every document is a valid object of its apiVersion and kind, with no unknown field', async (t) => {
  t.ok(manifests.length >= 15, `${manifests.length} documents`);
  for (const { file, doc } of manifests) {
    const where = `${file}: ${doc['kind']} ${doc['metadata']?.['name']}`;
    const Model = modelFor(String(doc['apiVersion']), String(doc['kind']));
    t.ok(Model, `${where}: kubernetes-models has ${doc['apiVersion']} ${doc['kind']}`);
    if (!Model) continue;
    let unknown: string[] = [];
    t.doesNotThrow(() => (unknown = validateStrictly(Model, doc)), `${where} validates`);
    t.same(unknown, [], `${where}: no field unknown to the schema`);
  }
});

t.test('the strict validation catches a wrong type and a misspelled field', async (t) => {
  const deployment = structuredClone(named('Deployment', 'api')!);
  const Model = modelFor('apps/v1', 'Deployment')!;
  t.same(validateStrictly(Model, deployment), [], 'the real one passes');
  containerOf(deployment)['readinessprobe'] = containerOf(deployment)['readinessProbe'];
  t.same(validateStrictly(Model, deployment), ['Deployment.spec.template.spec.containers[0].readinessprobe']);
  containerOf(deployment)['ports'][0]['containerPort'] = 'eighty';
  t.throws(() => validateStrictly(Model, deployment), /containerPort must be integer/);
});

t.test('every compose service has a workload of its name running the same command', async (t) => {
  for (const name of Object.keys(compose.services)) {
    const service = compose.services[name]!;
    const workload = named(platform.includes(name) ? 'Deployment' : 'StatefulSet', name);
    t.ok(workload, `${name} is a ${platform.includes(name) ? 'Deployment' : 'StatefulSet'}`);
    if (!workload) continue;
    const container = containerOf(workload);
    // Compose's command replaces the image's CMD and keeps its ENTRYPOINT; Kubernetes args do the same.
    t.same(container['args'], service.command, `${name}: args are compose's command`);
    t.equal(container['command'], undefined, `${name}: the image's entry point is kept`);
    if (service.image) t.equal(container['image'], service.image, `${name}: the same pinned image as compose`);
  }
  const platformImage = kustomization.images?.find((i) => i.name === 'ops-platform');
  t.match(`ops-platform:${platformImage?.newTag}`, pinnedImage, 'the platform image is pinned in kustomization.yaml');
  for (const name of platform) t.equal(containerOf(named('Deployment', name)!)['image'], 'ops-platform', `${name} runs the platform image`);
});

/** A container's variable names: its env and the keys of the ConfigMaps it takes whole. */
function envNames(t: Test, where: string, container: Json): string[] {
  const names: string[] = (container['env'] ?? []).map((e: Json) => e['name']);
  for (const from of container['envFrom'] ?? []) {
    t.notOk(from['secretRef'], `${where}: no Secret taken whole (its keys could not be checked)`);
    const map = from['configMapRef'] && named('ConfigMap', from['configMapRef']['name']);
    t.ok(map, `${where}: ConfigMap ${from['configMapRef']?.['name']} is in the manifests`);
    names.push(...Object.keys(map?.['data'] ?? {}).map((k) => (from['prefix'] ?? '') + k));
  }
  return names;
}

t.test('each platform process gets exactly the variables compose gives it', async (t) => {
  for (const name of platform) {
    const names = envNames(t, name, containerOf(named('Deployment', name)!));
    t.equal(new Set(names).size, names.length, `${name}: no variable set twice`);
    t.same([...names].sort(), Object.keys(environmentOf(compose.services[name]!)).sort(), `${name}: the same names as compose`);
  }
});

t.test('secrets are read from Secrets that are documented, never committed', async (t) => {
  t.same(ofKind('Secret'), [], 'no Secret object (and so no default token) is committed');
  const secretVars = ['OPS_ADMIN_TOKEN', 'CLICKHOUSE_USER', 'CLICKHOUSE_PASSWORD'];
  const referenced = new Set<string>();
  for (const workload of workloads()) {
    for (const e of containerOf(workload)['env'] ?? []) {
      const ref = e['valueFrom']?.['secretKeyRef'];
      if (ref) referenced.add(ref['name']);
      if (secretVars.includes(e['name'])) t.ok(ref, `${workload['metadata']['name']}: ${e['name']} comes from a Secret`);
    }
  }
  for (const map of ofKind('ConfigMap'))
    t.same(
      Object.keys(map['data'] ?? {}).filter((k) => secretVars.includes(k)),
      [],
      `ConfigMap ${map['metadata']['name']} holds no secret`,
    );
  const readme = readRepoFile('README.md');
  const howTo = readRepoFile(`${dir}kustomization.yaml`);
  t.same([...referenced].sort(), ['ops-admin', 'ops-clickhouse']);
  for (const secret of referenced) {
    const howToCreate = new RegExp(`create secret generic ${secret}\\b`);
    t.ok(howToCreate.test(howTo), `kustomization.yaml says how to create ${secret}`);
    t.ok(howToCreate.test(readme), `the README says how to create ${secret}`);
  }
});

t.test('platform processes are probed on the real system routes, on the port they listen on', async (t) => {
  const routes = systemRoutes({ engines: {}, metrics: createMetrics(), routes: () => [], version: '0' });
  const path = (name: string): string => routes.find((r) => r.name === name)!.path;
  const port = loadConfig({}).port;
  for (const name of platform) {
    const workload = named('Deployment', name)!;
    const container = containerOf(workload);
    const ports = container['ports'] as Json[];
    const http = ports.find((p) => p['name'] === 'http');
    t.equal(http?.['containerPort'], port, `${name}: the http port is OPS_PORT's default`);
    for (const [probe, route] of [
      ['startupProbe', 'system.health'],
      ['livenessProbe', 'system.health'],
      ['readinessProbe', 'system.ready'],
    ] as const) {
      t.equal(container[probe]?.['httpGet']?.['path'], path(route), `${name}: ${probe} on ${path(route)}`);
      t.equal(container[probe]?.['httpGet']?.['port'], 'http', `${name}: ${probe} on the http port`);
    }
    const annotations = workload['spec']['template']['metadata']['annotations'] ?? {};
    t.equal(annotations['prometheus.io/scrape'], 'true', `${name}: scraped`);
    t.equal(annotations['prometheus.io/port'], String(port), `${name}: scraped on its port`);
    t.equal(annotations['prometheus.io/path'], path('system.metrics'), `${name}: scraped at the metrics route`);
  }
});

t.test('every engine is a StatefulSet with its data directory on a claim, and probes', async (t) => {
  for (const name of engines) {
    const set = named('StatefulSet', name)!;
    const container = containerOf(set);
    const dataDir = familiesOf(container['image']).product?.dataDir;
    const claims = (set['spec']['volumeClaimTemplates'] ?? []).map((c: Json) => c['metadata']['name']);
    const mount = (container['volumeMounts'] ?? []).find((m: Json) => m['mountPath'] === dataDir);
    t.ok(dataDir, `${name}: its image family says where the data lives`);
    t.ok(mount && claims.includes(mount['name']), `${name}: ${dataDir} is on a PersistentVolumeClaim`);
    t.ok(container['livenessProbe'] && container['readinessProbe'], `${name}: liveness and readiness probes`);
  }
  const nats = containerOf(named('StatefulSet', 'nats')!);
  const confPath = nats['args'][nats['args'].indexOf('-c') + 1] as string;
  const mount = (nats['volumeMounts'] as Json[]).find((m) => confPath.startsWith(`${m['mountPath']}/`));
  const volume = named('StatefulSet', 'nats')!['spec']['template']['spec']['volumes'].find((v: Json) => v['name'] === mount?.['name']);
  const conf = named('ConfigMap', volume?.['configMap']?.['name'])?.['data']?.[confPath.slice(String(mount?.['mountPath']).length + 1)] as string | undefined;
  t.ok(conf, `nats reads ${confPath} from a ConfigMap`);
  t.equal(natsConfValue(conf ?? '', 'store_dir'), familiesOf(nats['image']).product?.dataDir, 'JetStream stores on the claim');
  const maxPayload = natsConfValue(conf ?? '', 'max_payload') ?? '0';
  t.ok(natsSizeBytes(maxPayload) >= ingressBatchMaxBytes(), `max_payload ${maxPayload} takes the ingress's ${ingressBatchMaxBytes()}-byte batches`);
  const monitor = (nats['ports'] as Json[]).find((p) => p['name'] === 'monitor');
  t.equal(String(monitor?.['containerPort']), natsConfValue(conf ?? '', 'http_port'), 'the monitor port is the configured http_port');
  t.equal(nats['readinessProbe']?.['httpGet']?.['port'], 'monitor', 'nats is probed on its monitor port');
});

t.test('every container requests CPU and memory', async (t) => {
  for (const workload of workloads()) {
    for (const c of workload['spec']['template']['spec']['containers'] as Json[]) {
      t.ok(c['resources']?.['requests']?.['cpu'] && c['resources']?.['requests']?.['memory'], `${workload['metadata']['name']}/${c['name']}: requests`);
    }
  }
});

t.test('every Service selects pods, on ports their containers name', async (t) => {
  for (const service of ofKind('Service')) {
    const selector = service['spec']['selector'] as Record<string, string>;
    const pods = workloads().filter((w) => Object.entries(selector).every(([k, v]) => w['spec']['template']['metadata']['labels']?.[k] === v));
    t.ok(pods.length > 0, `Service ${service['metadata']['name']} selects a workload`);
    for (const pod of pods) {
      const ports = (pod['spec']['template']['spec']['containers'] as Json[]).flatMap((c) => c['ports'] ?? []);
      for (const p of service['spec']['ports'] as Json[]) {
        const target = p['targetPort'] ?? p['port'];
        t.ok(
          ports.some((cp: Json) => (typeof target === 'string' ? cp['name'] === target : cp['containerPort'] === target)),
          `Service ${service['metadata']['name']} → ${pod['metadata']['name']}:${target}`,
        );
      }
    }
  }
  const metrics = named('Service', 'ops-platform-metrics');
  const scraped = ofKind('Deployment').filter((w) =>
    Object.entries(metrics?.['spec']['selector'] ?? { none: 'none' }).every(([k, v]) => w['spec']['template']['metadata']['labels']?.[k] === v),
  );
  t.same(scraped.map((w) => w['metadata']['name']).sort(), [...platform].sort(), 'the metrics Service covers every platform process, workers included');
});

t.test('the event worker scales with an autoscaling/v2 HorizontalPodAutoscaler', async (t) => {
  const hpa = ofKind('HorizontalPodAutoscaler').find((h) => h['spec']['scaleTargetRef']['name'] === 'event-worker');
  t.equal(hpa?.['apiVersion'], 'autoscaling/v2');
  t.equal(hpa?.['spec']['scaleTargetRef']['kind'], 'Deployment');
  t.ok(hpa && hpa['spec']['minReplicas'] <= hpa['spec']['maxReplicas'] && hpa['spec']['maxReplicas'] > 1, 'it can scale out');
  // A replicas field would be re-applied by every `kubectl apply` and fight the autoscaler.
  t.equal(named('Deployment', 'event-worker')?.['spec']['replicas'], undefined, 'the autoscaler owns the replica count');
});

t.test('kubectl kustomize renders the set into the namespace with the pinned platform image', { skip: kubectl.skip }, async (t) => {
  const version = spawnSync(kubectl.path!, ['version', '--client'], { encoding: 'utf8' }).stdout.trim().split('\n')[0];
  const rendered = spawnSync(kubectl.path!, ['kustomize', repoPath(dir)], { encoding: 'utf8' });
  t.equal(rendered.status, 0, `kubectl kustomize renders the set (${version})`, { stderr: rendered.stderr });
  const docs = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Json);
  t.equal(docs.length, manifests.length, 'every document is rendered');
  for (const d of docs) if (d['kind'] !== 'Namespace') t.equal(d['metadata']['namespace'], kustomization.namespace, `${d['kind']} ${d['metadata']['name']} in the namespace`);
  const tag = kustomization.images?.find((i) => i.name === 'ops-platform')?.newTag;
  for (const d of docs.filter((x) => x['kind'] === 'Deployment'))
    t.equal(d['spec']['template']['spec']['containers'][0]['image'], `ops-platform:${tag}`, `${d['metadata']['name']} gets the pinned image`);
});
