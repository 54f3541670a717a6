import t from 'tap';
import { ConfigError, isDistributed, loadConfig } from '../../../../services/runtime/config.js';

t.test('with no environment everything is embedded under ./data on port 8080', async (t) => {
  const config = loadConfig({});
  t.equal(config.port, 8080);
  t.match(config.dataDir, /\/data$/);
  t.equal(config.analytics.kind, 'chdb');
  t.equal(config.bus.kind, 'memory');
  t.equal(config.journal.kind, 'lmdb');
  t.match(config.journal.kind === 'lmdb' ? config.journal.path : '', /\/data\/control$/);
  t.match(config.analytics.kind === 'chdb' ? config.analytics.dataDir : '', /\/data\/clickhouse$/);
  t.equal(config.logLevel, 'info');
  t.equal(config.helperThreadNiceness, 10);
  t.equal(isDistributed(config), false);
});

t.test('OPS_HELPER_THREAD_NICENESS sets the nice value of the helper threads; 0 leaves them', async (t) => {
  t.equal(loadConfig({ OPS_HELPER_THREAD_NICENESS: '19' }).helperThreadNiceness, 19);
  t.equal(loadConfig({ OPS_HELPER_THREAD_NICENESS: '0' }).helperThreadNiceness, 0);
});

t.test('server URLs switch each port to its server adapter', async (t) => {
  const config = loadConfig({
    NATS_URL: 'nats://n:4222',
    REDIS_URL: 'redis://r:6379',
    CLICKHOUSE_URL: 'http://c:8123',
    CLICKHOUSE_USER: 'u',
    CLICKHOUSE_PASSWORD: 'p',
    CLICKHOUSE_DATABASE: 'db1',
  });
  t.same(config.analytics, { kind: 'clickhouse', url: 'http://c:8123', username: 'u', password: 'p', database: 'db1' });
  t.same(config.bus, { kind: 'jetstream', url: 'nats://n:4222' });
  t.same(config.journal, { kind: 'redis', url: 'redis://r:6379', keyPrefix: 'ops:' });
  t.equal(isDistributed(config), true);
});

const bad: Array<[string, string, RegExp]> = [
  ['OPS_PORT', 'eighty', /^OPS_PORT must be an integer port from 1 to 65535 \(got "eighty"\)$/],
  ['OPS_PORT', '70000', /^OPS_PORT must be/],
  ['NATS_URL', 'http://x', /^NATS_URL must be a nats:\/\/ or tls:\/\/ URL/],
  ['REDIS_URL', 'localhost:6379', /^REDIS_URL must be/],
  ['CLICKHOUSE_URL', 'clickhouse:8123', /^CLICKHOUSE_URL must be/],
  ['CLICKHOUSE_DATABASE', 'drop table', /^CLICKHOUSE_DATABASE must be/],
  ['LOG_LEVEL', 'loud', /^LOG_LEVEL must be one of/],
  ['OPS_MAX_BODY_BYTES', '0', /^OPS_MAX_BODY_BYTES must be/],
  ['OPS_HELPER_THREAD_NICENESS', '20', /^OPS_HELPER_THREAD_NICENESS must be an integer from 0 to 19/],
  ['OPS_HELPER_THREAD_NICENESS', '-5', /^OPS_HELPER_THREAD_NICENESS must be/],
  ['OPS_SESSION_IDLE_MINUTES', '0', /^OPS_SESSION_IDLE_MINUTES must be an integer from 1 to 1440/],
  ['OPS_SESSION_MAX_HOURS', '1.5', /^OPS_SESSION_MAX_HOURS must be an integer from 1 to 720/],
  ['OPS_COOKIE_SECURE', 'yes', /^OPS_COOKIE_SECURE must be one of auto, always, never/],
  ['OPS_NOTIFY_ALLOW_NETWORKS', 'example.com', /^OPS_NOTIFY_ALLOW_NETWORKS must be networks in CIDR notation/],
  [
    'OPS_NOTIFY_ALLOW_NETWORKS',
    '10.0.0.1/8',
    /^OPS_NOTIFY_ALLOW_NETWORKS must be .* \(got "10\.0\.0\.1\/8": 10\.0\.0\.1\/8 has bits set past its \/8 prefix: write 10\.0\.0\.0\/8\)$/,
  ],
  ['OPS_NOTIFY_ALLOW_NETWORKS', '127.0.0.1/40', /^OPS_NOTIFY_ALLOW_NETWORKS must be .*at most \/32/],
];

t.test("the console's sessions: kept in the journal's engine, 30 minutes idle and 12 hours at most by default", async (t) => {
  const embedded = loadConfig({ OPS_DATA_DIR: '/var/lib/ops' });
  t.same(embedded.sessions, { store: { kind: 'lmdb', path: '/var/lib/ops/sessions' }, idleMs: 30 * 60_000, maxMs: 12 * 3_600_000, cookieSecure: 'auto' });
  const set = loadConfig({ REDIS_URL: 'redis://r:6379', REDIS_KEY_PREFIX: 'x:', OPS_SESSION_IDLE_MINUTES: '15', OPS_SESSION_MAX_HOURS: '8', OPS_COOKIE_SECURE: 'always' });
  t.same(set.sessions, { store: { kind: 'redis', url: 'redis://r:6379', keyPrefix: 'x:' }, idleMs: 15 * 60_000, maxMs: 8 * 3_600_000, cookieSecure: 'always' });
});
t.test('OPS_NOTIFY_ALLOW_NETWORKS lists the networks outbound notifications may reach past the SSRF rules; none by default', async (t) => {
  t.same(loadConfig({}).notifyAllowNetworks, []);
  t.same(loadConfig({ OPS_NOTIFY_ALLOW_NETWORKS: '127.0.0.1/32, 10.20.0.0/16,fd00:1::/64' }).notifyAllowNetworks, [
    { address: '127.0.0.1', prefix: 32, family: 'ipv4' },
    { address: '10.20.0.0', prefix: 16, family: 'ipv4' },
    { address: 'fd00:1::', prefix: 64, family: 'ipv6' },
  ]);
});
t.test('OPS_CONSOLE_URL is where notification links point; by default the console on this port', async (t) => {
  t.equal(loadConfig({}).consoleUrl, 'http://localhost:8080/');
  t.equal(loadConfig({ OPS_PORT: '9000' }).consoleUrl, 'http://localhost:9000/');
  t.equal(loadConfig({ OPS_CONSOLE_URL: 'https://ops.example.com/console' }).consoleUrl, 'https://ops.example.com/console/', 'with one closing slash');
  t.throws(() => loadConfig({ OPS_CONSOLE_URL: 'ops.example.com' }), /OPS_CONSOLE_URL must be an http:\/\/ or https:\/\/ URL/);
});
for (const [name, value, message] of bad) {
  t.test(`a bad ${name} stops the start with one line naming it`, async (t) => {
    t.throws(() => loadConfig({ [name]: value }), ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      t.match((error as Error).message, message);
      t.notMatch((error as Error).message, /\n/);
    }
  });
}

t.test('a bad secret is named but not echoed', async (t) => {
  try {
    loadConfig({ OPS_ADMIN_TOKEN: 'short' });
    t.fail('should throw');
  } catch (error) {
    t.match((error as Error).message, /^OPS_ADMIN_TOKEN must be/);
    t.notMatch((error as Error).message, /short/);
  }
});
