/** The HTTP metrics' tallies: what the registry exposes is what prom-client's own counter and histogram would. */
import { Counter, Histogram, Registry } from 'prom-client';
import t from 'tap';
import { registerRequestTallies } from '../../../../../services/runtime/http/request-tally.js';

const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const ANSWERS: Array<[route: string, method: string, status: number, seconds: number]> = [
  ['ingress.streamData', 'POST', 200, 0.0004],
  ['ingress.streamData', 'POST', 200, 0.0005],
  ['ingress.streamData', 'POST', 422, 0.003],
  ['cmdb.getConfigItem', 'GET', 200, 0.02],
  ['cmdb.getConfigItem', 'HEAD', 200, 0.01],
  ['cmdb.getConfigItem', 'GET', 404, 12],
  ['unmatched', 'DELETE', 404, 0.0001],
];

/** The same answers through prom-client's Counter and Histogram, as the server recorded them before. */
async function reference(): Promise<string> {
  const registry = new Registry();
  const requests = new Counter({
    name: 'ops_http_requests_total',
    help: 'HTTP requests answered, by route name, method and status code',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'ops_http_request_duration_seconds',
    help: 'Time from request to the end of the answer',
    labelNames: ['route', 'method'],
    buckets: BOUNDS,
    registers: [registry],
  });
  for (const [route, method, status, seconds] of ANSWERS) {
    requests.inc({ route, method, status: String(status) });
    durations.observe({ route, method }, seconds);
  }
  return registry.metrics();
}

t.test('the exposition is the one of prom-client’s counter and histogram for the same answers', async (t) => {
  const registry = new Registry();
  const tallies = registerRequestTallies(registry, BOUNDS);
  for (const [route, method, status, seconds] of ANSWERS) tallies.of(route, method).record(status, seconds);
  // The order of the series within a metric is free in the exposition format.
  const lines = (text: string) => text.split('\n').sort();
  t.same(lines(await registry.metrics()), lines(await reference()));
});

t.test('a route and method have one tally, found again by every lookup', async (t) => {
  const tallies = registerRequestTallies(new Registry(), BOUNDS);
  t.equal(tallies.of('cmdb.getConfigItem', 'GET'), tallies.of('cmdb.getConfigItem', 'GET'));
  t.not(tallies.of('cmdb.getConfigItem', 'GET'), tallies.of('cmdb.getConfigItem', 'HEAD'));
});

t.test('a reset zeroes the tallies the server holds, which keep counting', async (t) => {
  const registry = new Registry();
  const tallies = registerRequestTallies(registry, BOUNDS);
  const held = tallies.of('ingress.streamData', 'POST');
  held.record(200, 0.001);
  registry.resetMetrics();
  held.record(200, 0.001);
  const text = await registry.metrics();
  t.match(text, /^ops_http_requests_total\{route="ingress\.streamData",method="POST",status="200"\} 1$/m);
  t.match(text, /^ops_http_request_duration_seconds_count\{route="ingress\.streamData",method="POST"\} 1$/m);
});
