/**
 * Benchmark child: many subscribers of GET /problems/stream, for the SSE fan-out scenario of the
 * problems API benchmark. Reads its spec (SubscribersSpec) as the first JSON line on stdin, opens
 * that many streams (each its own connection), prints {"ready":n} once every one has its 200 and
 * the server's first frame, then reads. Each change the publisher sent carries its send time in
 * the trigger's name (`sent@<epoch ms>`) and its sequence number in the problem id's last 12 hex
 * digits; per frame this process takes the delivery latency (arrival − send time, both from
 * performance.timeOrigin + now, the same clock in every process of the machine) and marks the
 * change received for that subscriber. Then, on stdin lines:
 *   `status` → {"received": unique changes received over all subscribers}
 *   `report` (or stdin's end) → SubscribersReport as the last line, and the process exits.
 * A subscriber expects exactly the changes of the run on the CIs the user may read (ids unique):
 * lost = expected − received; one on another CI is `unexpected` (a rights leak).
 */
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { LatencyHistogram } from './cpu-time.js';
import { changeCi, readable } from './problems-api-dataset.js';

export interface SubscribersSpec {
  /** Full URL of the stream. */
  url: string;
  token: string;
  subscribers: number;
  /** The run's changes: sequence numbers seqFrom … seqFrom + seqCount − 1. */
  seqFrom: number;
  seqCount: number;
}

export interface SubscribersReport {
  subscribers: number;
  /** Per subscriber: changes it should get. */
  expectedEach: number;
  received: number;
  lost: number;
  duplicates: number;
  unexpected: number;
  /** `disconnect` events (too slow a client) and streams that ended. */
  disconnects: number;
  ended: number;
  histogram: Array<[number, number]>;
  /** CPU seconds of this process since `ready`, per second (1 = one core). */
  cpuShare: number;
}

const now = (): number => performance.timeOrigin + performance.now();
const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
const spec = JSON.parse((await lines.next()).value as string) as SubscribersSpec;

const expected = new Uint8Array(spec.seqCount);
for (let i = 0; i < spec.seqCount; i++) expected[i] = readable(changeCi(spec.seqFrom + i)) ? 1 : 0;
const expectedEach = expected.reduce((n, e) => n + e, 0);
const histogram = new LatencyHistogram();
let received = 0;
let duplicates = 0;
let unexpected = 0;
let disconnects = 0;
let ended = 0;

function subscribe(): Promise<void> {
  const seen = new Uint8Array(spec.seqCount);
  return new Promise((resolve, reject) => {
    const req = request(spec.url, { agent: false, headers: { authorization: `Bearer ${spec.token}`, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`stream answered ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        const at = now();
        buffer += chunk;
        let start = 0;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n', start)) {
          const frame = buffer.slice(start, end);
          start = end + 2;
          if (frame.startsWith('retry')) resolve();
          if (frame.includes('event: disconnect')) disconnects++;
          const sent = frame.indexOf('sent@');
          const idAt = frame.indexOf('"id":"');
          if (sent < 0 || idAt < 0) continue;
          histogram.record(at - Number(frame.slice(sent + 5, frame.indexOf('"', sent))));
          const seq = parseInt(frame.slice(idAt + 6 + 24, idAt + 6 + 36), 16) - spec.seqFrom;
          if (seq < 0 || seq >= spec.seqCount || !expected[seq]) unexpected++;
          else if (seen[seq]) duplicates++;
          else {
            seen[seq] = 1;
            received++;
          }
        }
        buffer = buffer.slice(start);
      });
      res.on('end', () => ended++);
      res.on('error', () => undefined);
    });
    req.on('error', reject);
    req.end();
  });
}

// Opened 50 at a time: a burst of a thousand connects would overflow the listen backlog.
for (let opened = 0; opened < spec.subscribers; opened += 50) {
  await Promise.all(Array.from({ length: Math.min(50, spec.subscribers - opened) }, subscribe));
}
const cpuAtReady = process.cpuUsage();
const wallAtReady = performance.now();
process.stdout.write(`${JSON.stringify({ ready: spec.subscribers })}\n`);

for (;;) {
  const { value, done } = await lines.next();
  if (done || value === 'report') break;
  if (value === 'status') process.stdout.write(`${JSON.stringify({ received })}\n`);
}
const cpu = process.cpuUsage(cpuAtReady);
const report: SubscribersReport = {
  subscribers: spec.subscribers,
  expectedEach,
  received,
  lost: expectedEach * spec.subscribers - received,
  duplicates,
  unexpected,
  disconnects,
  ended,
  histogram: histogram.toPairs(),
  cpuShare: (cpu.user + cpu.system) / 1e6 / ((performance.now() - wallAtReady) / 1000),
};
process.stdout.write(`${JSON.stringify(report)}\n`);
process.exit(0);
