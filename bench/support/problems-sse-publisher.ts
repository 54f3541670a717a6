/**
 * Benchmark child: publishes problem changes on the bus feed PROBLEM_CHANGES, as the keyed
 * problem stage does (encodeChanges({changes, verdicts: []}) on PROBLEM_CHANGES_SUBJECT), at a
 * fixed rate, for the SSE fan-out scenario. Talks to the same nats-server as the API (NATS_URL).
 * Reads its spec (PublisherSpec) as the first JSON line on stdin, prints {"ready":true} once
 * connected, starts on the stdin line `go`, and prints PublisherReport when done, as its last line.
 *
 * Change `seq` is an `opened` problem with id problemId(seq, '9') (the sequence number in its
 * last 12 hex digits) on CI changeCi(seq), its trigger's name `sent@<epoch ms>`: the moment
 * its message was handed to the bus (performance.timeOrigin + now). Messages go out on a fixed
 * schedule (`perMessage` changes every perMessage / rate seconds), without waiting for the
 * previous one's ack, so a slow ack delays no later message.
 */
import { createInterface } from 'node:readline';
import { encodeChanges } from '../../pipelines/problems/problem-changes.js';
import type { ProblemRow } from '../../pipelines/problems/problem-row.js';
import { clickhouseDateTime } from '../../pipelines/records/timestamps.js';
import { createJetStreamBus } from '../../services/runtime/adapters/bus/jetstream.adapter.js';
import { PROBLEM_CHANGES_FEED, PROBLEM_CHANGES_SUBJECT } from '../../services/runtime/bus-streams.js';
import { createLogger } from '../../services/runtime/logger.js';
import { changeCi, problemId } from './problems-api-dataset.js';

export interface PublisherSpec {
  /** Changes per second. */
  rate: number;
  seconds: number;
  perMessage: number;
  seqFrom: number;
}

export interface PublisherReport {
  changes: number;
  messages: number;
  /** Wall seconds from the first publish to the last ack. */
  seconds: number;
  /** The latest a message went out after its scheduled time (ms): the publisher kept up when small. */
  maxBehindMs: number;
  ackP50Ms: number;
  ackP99Ms: number;
  failed: number;
  cpuShare: number;
}

const url = process.env['NATS_URL'];
if (!url) throw new Error('NATS_URL names the bus the API reads');
const input = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const spec = JSON.parse((await input.next()).value as string) as PublisherSpec;
const bus = await createJetStreamBus({ url, name: 'bench-sse-publisher' }, { logger: createLogger('warn', process.stderr) });
await bus.ensureFeed(PROBLEM_CHANGES_FEED);
const now = (): number => performance.timeOrigin + performance.now();

function change(seq: number, sentAt: number): { kind: 'opened'; row: ProblemRow } {
  const text = clickhouseDateTime(Math.floor(sentAt));
  return {
    kind: 'opened',
    row: {
      id: problemId(seq, '9'),
      trigger_id: 1,
      trigger_name: `sent@${sentAt.toFixed(3)}`,
      ci_id: changeCi(seq),
      date_start: text,
      date_end: null,
      last_event_at: text,
      priority: 1 + (seq % 4),
      tags: '[]',
      incidents: '[]',
      influence_value: 50,
      influence_max: 0,
      with_maintenance: 0,
      acknowledged: '',
      comments_count: 0,
      version: 1,
      is_deleted: 0,
    },
  };
}

process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
while ((await input.next()).value !== 'go');

const messages = Math.round((spec.rate * spec.seconds) / spec.perMessage);
const intervalMs = (1000 * spec.perMessage) / spec.rate;
const acks: number[] = [];
const inFlight: Array<Promise<void>> = [];
let failed = 0;
let maxBehindMs = 0;
const cpuBefore = process.cpuUsage();
const startedAt = performance.now();
for (let m = 0; m < messages; m++) {
  const due = startedAt + m * intervalMs;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  maxBehindMs = Math.max(maxBehindMs, performance.now() - due);
  const sentAt = now();
  const first = spec.seqFrom + m * spec.perMessage;
  const changes = Array.from({ length: spec.perMessage }, (_, i) => change(first + i, sentAt));
  inFlight.push(
    bus.publish(PROBLEM_CHANGES_SUBJECT, encodeChanges({ changes, verdicts: [] }), { msgId: `bench-sse-${first}` }).then(
      () => void acks.push(now() - sentAt),
      () => void failed++,
    ),
  );
}
await Promise.all(inFlight);
const seconds = (performance.now() - startedAt) / 1000;
const cpu = process.cpuUsage(cpuBefore);
acks.sort((a, b) => a - b);
const at = (p: number): number => acks[Math.min(acks.length - 1, Math.ceil((p / 100) * acks.length) - 1)] ?? Number.NaN;
const report: PublisherReport = {
  changes: messages * spec.perMessage,
  messages,
  seconds,
  maxBehindMs,
  ackP50Ms: at(50),
  ackP99Ms: at(99),
  failed,
  cpuShare: (cpu.user + cpu.system) / 1e6 / seconds,
};
await bus.close();
process.stdout.write(`${JSON.stringify(report)}\n`);
process.exit(0);
