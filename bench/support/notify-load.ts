/**
 * Benchmark child, the load generator of the notifications benchmark: for each JSON line on stdin
 * (a LoadSpec) it sends the plan's records (notify-plan.ts), one single-record JSON POST per
 * transition, on a fixed schedule — slot k at k / rate seconds after the start, without waiting
 * for earlier answers (an open loop, over keep-alive connections) — and prints a LoadReport as
 * one JSON line once every request was answered. Prints {"ready":true} first.
 *
 * Each record's date is its slot's scheduled instant. A transition's instant is when its record
 * was acknowledged (the platform's 2xx: the record is on the bus), taken at the answer's headers
 * as performance.timeOrigin + now, the clock every process on the machine shares. The report says
 * whether this process kept to the schedule (how late the latest request left, its send rate
 * against the offered one) and how much CPU it used, so a result can show it was not the limit.
 */
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import { type PlanSpec, recordOf, transitionAt, transitionsOf } from './notify-plan.js';

export interface LoadSpec {
  /** The stream-data URL with its streamKey. */
  url: string;
  plan: PlanSpec;
  /** Transitions (requests) per second. */
  rate: number;
}

export interface LoadReport {
  offered: number;
  /** Epoch ms of slot 0's scheduled instant. */
  startedAt: number;
  /** Per slot: epoch ms of the 2xx answer, null when the request failed. */
  acceptedAt: Array<number | null>;
  /** Answers by status (`error` for a connection failure). */
  statuses: Record<string, number>;
  /** Requests sent per second, from slot 0's instant to the last request's departure. */
  sendRate: number;
  /** The latest a request left after its scheduled instant (ms). */
  maxBehindMs: number;
  /** From each request's departure to its answer (ms). */
  ackP50Ms: number;
  ackP99Ms: number;
  ackMaxMs: number;
  /** Most requests waiting for an answer at once. */
  maxInFlight: number;
  /** CPU seconds of this process over the run's wall seconds (1 = one core). */
  cpuShare: number;
}

const now = (): number => performance.timeOrigin + performance.now();
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

function run(spec: LoadSpec): Promise<LoadReport> {
  const n = transitionsOf(spec.plan);
  const period = 1000 / spec.rate;
  const acceptedAt: Array<number | null> = new Array<number | null>(n).fill(null);
  const ackMs = new Float64Array(n).fill(Number.NaN);
  const statuses: Record<string, number> = {};
  const count = (status: string): void => void (statuses[status] = (statuses[status] ?? 0) + 1);
  let answered = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let maxBehindMs = 0;
  let lastSentAt = 0;
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();
  const startedAt = performance.timeOrigin + t0;
  return new Promise((resolve) => {
    const finish = (): void => {
      const wall = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const acks = Array.from(ackMs.filter((x) => !Number.isNaN(x))).sort((a, b) => a - b);
      const at = (p: number): number => acks[Math.min(acks.length - 1, Math.max(0, Math.ceil((p / 100) * acks.length) - 1))] ?? Number.NaN;
      resolve({
        offered: n,
        startedAt,
        acceptedAt,
        statuses,
        sendRate: n / Math.max(1e-9, (lastSentAt - t0 + period) / 1000),
        maxBehindMs,
        ackP50Ms: at(50),
        ackP99Ms: at(99),
        ackMaxMs: acks[acks.length - 1] ?? Number.NaN,
        maxInFlight,
        cpuShare: (cpu.user + cpu.system) / 1e6 / wall,
      });
    };
    const done = (): void => {
      inFlight--;
      if (++answered === n) finish();
    };
    const send = (slot: number): void => {
      const body = recordOf(transitionAt(spec.plan, slot), startedAt + slot * period);
      const sentAt = performance.now();
      lastSentAt = sentAt;
      maxBehindMs = Math.max(maxBehindMs, sentAt - (t0 + slot * period));
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const req = request(spec.url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        const at = performance.now();
        const status = res.statusCode ?? 0;
        count(String(status));
        if (status >= 200 && status < 300) {
          acceptedAt[slot] = performance.timeOrigin + at;
          ackMs[slot] = at - sentAt;
        }
        res.resume();
        res.on('end', done);
      });
      req.on('error', () => {
        count('error');
        done();
      });
      req.end(body);
    };
    let slot = 0;
    const tick = (): void => {
      const current = performance.now();
      while (slot < n && t0 + slot * period <= current) send(slot++);
      if (slot < n) setTimeout(tick, Math.max(0, t0 + slot * period - performance.now()));
    };
    tick();
  });
}

const input = createInterface({ input: process.stdin });
process.stdout.write(`${JSON.stringify({ ready: true, at: now() })}\n`);
for await (const line of input) {
  if (line.trim() === '') continue;
  const report = await run(JSON.parse(line) as LoadSpec);
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
agent.destroy();
