/**
 * Benchmark child of the notifications benchmark: what the platform sends, taken in one process
 * apart from the load generator's.
 *
 * - The webhook receivers: a node:http server on 127.0.0.1, receiver i at `/hook/<i>` with its own
 *   `whsec_` secret. Every request's Standard Webhooks signature is verified with the
 *   `standardwebhooks` package; its webhook-id is counted (a repeat is a duplicate); every
 *   CloudEvent in it (one, or a batch) is named by its problem's CI, trigger and kind
 *   (notify-plan.ts keyOf) and its receipt time taken when the body has arrived; the answer is
 *   200.
 * - The observer: one GET /problems/stream (the problems API's Server-Sent Events), for the
 *   instant each transition's problem change was on the change feed (the one the dispatcher
 *   reads): `opened` and `resolved` frames, named the same way.
 *
 * Times are performance.timeOrigin + now, the clock every process on the machine shares.
 * Reads a ReceiverSpec as the first JSON line on stdin, prints {"port"} once listening and
 * subscribed; then, per stdin line, `status` → ReceiverStatus, `report` → ReceiverReport; it exits
 * when stdin ends. Transitions of the warm-up's trigger (spec.warmCheck) are counted apart and
 * left out of the report's maps.
 *
 * Folded: when the problem stage places a key's opening and resolving hits in one step, the feed
 * carries one `opened` change whose problem already has its dateEnd, and no `resolved`
 * (pipelines/problems/problem-changes.ts keyChanges). The observer takes such a frame as both
 * transitions on the feed and counts the resolve as folded. The dispatcher tells both events for
 * it (pipelines/notifications/problem-events.ts problemEventsOf); a webhook `problem.opened` whose
 * problem already has its dateEnd is counted, as it would be a receiver told of an opening only.
 */
import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { Webhook } from 'standardwebhooks';
import { keyOf, type TransitionKind } from './notify-plan.js';

export interface ReceiverSpec {
  /** The platform's origin, for the problem stream. */
  platformUrl: string;
  token: string;
  /** One secret per receiver: receiver i verifies with secrets[i]. */
  secrets: string[];
  warmCheck: string;
}

interface Counts {
  warm: number;
  main: number;
}

export interface ReceiverStatus {
  landed: Counts;
  /** Distinct (receiver, transition) pairs received. */
  delivered: Counts;
  /** Resolves folded into their opened change on the feed (see above). */
  folded: Counts;
  requests: number;
  /** Epoch ms of the latest request, or 0. */
  lastRequestAt: number;
}

export interface ReceiverReport extends ReceiverStatus {
  /** Transition key → when its change was on the feed (main keys only). */
  landedAt: Record<string, number>;
  /** Per receiver: transition key → when its event first arrived (main keys only). */
  deliveredAt: Array<Record<string, number>>;
  /** CloudEvents received over all requests. */
  events: number;
  /** Requests carrying a batch (several events). */
  batches: number;
  webhookIds: number;
  /** Requests whose webhook-id had been received before. */
  duplicateWebhookIds: number;
  /** Events of a (receiver, transition) pair received before (under another webhook-id). */
  duplicatePairs: number;
  /** Requests whose signature did not verify, and requests or events that could not be read. */
  badSignatures: number;
  unreadable: number;
  /** SSE frames: `disconnect` (too slow a client) and stream ends. */
  streamTrouble: number;
  /** Webhook `problem.opened` events whose problem was already closed (dateEnd set). */
  openedClosed: number;
  /** TCP connections the platform opened to the receivers (the warm-up's included). */
  connections: number;
}

const now = (): number => performance.timeOrigin + performance.now();
const input = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const spec = JSON.parse((await input.next()).value as string) as ReceiverSpec;
const verifiers = spec.secrets.map((secret) => new Webhook(secret));

const landedAt = new Map<string, number>();
const deliveredAt = spec.secrets.map(() => new Map<string, number>());
const webhookIds = spec.secrets.map(() => new Set<string>());
const status: ReceiverStatus = { landed: { warm: 0, main: 0 }, delivered: { warm: 0, main: 0 }, folded: { warm: 0, main: 0 }, requests: 0, lastRequestAt: 0 };
const tally = { events: 0, batches: 0, duplicateWebhookIds: 0, duplicatePairs: 0, badSignatures: 0, unreadable: 0, streamTrouble: 0, openedClosed: 0, connections: 0 };
const warmKeys = new Set<string>();
const part = (key: string): keyof Counts => (warmKeys.has(key) ? 'warm' : 'main');
/** The transition's key, remembered as the warm-up's when its trigger is. */
const keyFor = (ci: string, check: string, kind: TransitionKind): string => {
  const key = keyOf(ci, check, kind);
  if (check === spec.warmCheck) warmKeys.add(key);
  return key;
};
const kindOf = (kind: unknown): TransitionKind | undefined =>
  kind === 'problem.opened' || kind === 'opened' ? 'opened' : kind === 'problem.resolved' || kind === 'resolved' ? 'resolved' : undefined;

interface ProblemData {
  configItem?: { name?: string };
  trigger?: { name?: string };
  dateEnd?: string | null;
}

interface EventData {
  kind?: unknown;
  problem?: ProblemData;
}

function receive(receiver: number, headers: IncomingHttpHeaders, body: string, at: number): void {
  status.requests++;
  status.lastRequestAt = at;
  let parsed: unknown;
  try {
    parsed = verifiers[receiver]!.verify(body, headers as Record<string, string>);
  } catch {
    tally.badSignatures++;
    return;
  }
  const id = String(headers['webhook-id']);
  if (webhookIds[receiver]!.has(id)) {
    tally.duplicateWebhookIds++;
    return;
  }
  webhookIds[receiver]!.add(id);
  const events = (Array.isArray(parsed) ? parsed : [parsed]) as Array<{ data?: EventData }>;
  if (events.length > 1) tally.batches++;
  for (const event of events) {
    tally.events++;
    const kind = kindOf(event.data?.kind);
    const ci = event.data?.problem?.configItem?.name;
    const check = event.data?.problem?.trigger?.name;
    if (!kind || ci === undefined || check === undefined) {
      tally.unreadable++;
      continue;
    }
    if (kind === 'opened' && event.data?.problem?.dateEnd) tally.openedClosed++;
    const key = keyFor(ci, check, kind);
    const seen = deliveredAt[receiver]!;
    if (seen.has(key)) {
      tally.duplicatePairs++;
      continue;
    }
    seen.set(key, at);
    status.delivered[part(key)]++;
  }
}

const server = createServer((req, res) => {
  const receiver = Number(/^\/hook\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = now();
    if (receiver < 0 || receiver >= verifiers.length) {
      tally.unreadable++;
      res.writeHead(404).end();
      return;
    }
    receive(receiver, req.headers, Buffer.concat(chunks).toString('utf8'), at);
    res.writeHead(200).end();
  });
});
server.keepAliveTimeout = 60_000;
server.on('connection', () => void tally.connections++);
server.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));

/** Marks the transition on the feed; false when it was already. */
function land(key: string, at: number): boolean {
  if (landedAt.has(key)) return false;
  landedAt.set(key, at);
  status.landed[part(key)]++;
  return true;
}

/** The problem stream: resolves once the server's first frame came. */
function observe(): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${spec.platformUrl}/api/public/sm/v1/problems/stream`,
      { agent: false, headers: { authorization: `Bearer ${spec.token}`, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`the problem stream answered ${res.statusCode}`));
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
            const event = /^event: (\w+)$/m.exec(frame)?.[1];
            if (event === 'disconnect') tally.streamTrouble++;
            const kind = kindOf(event);
            const data = /^data: (.*)$/m.exec(frame)?.[1];
            if (!kind || data === undefined) continue;
            const item = JSON.parse(data) as ProblemData;
            const [ci, check] = [item.configItem?.name ?? '', item.trigger?.name ?? ''];
            land(keyFor(ci, check, kind), at);
            if (kind === 'opened' && item.dateEnd) {
              const resolved = keyFor(ci, check, 'resolved');
              if (land(resolved, at)) status.folded[part(resolved)]++;
            }
          }
          buffer = buffer.slice(start);
        });
        res.on('end', () => tally.streamTrouble++);
        res.on('error', () => undefined);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
await observe();
process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);

const mainOnly = (map: Map<string, number>): Record<string, number> => Object.fromEntries([...map].filter(([key]) => !warmKeys.has(key)));
// Answers until stdin ends (exiting right after a large answer could race its reading).
for (;;) {
  const { value, done } = await input.next();
  if (done) break;
  if (value === 'status') process.stdout.write(`${JSON.stringify(status)}\n`);
  if (value === 'report') {
    const report: ReceiverReport = {
      ...status,
      landedAt: mainOnly(landedAt),
      deliveredAt: deliveredAt.map(mainOnly),
      webhookIds: webhookIds.reduce((n, s) => n + s.size, 0),
      ...tally,
    };
    process.stdout.write(`${JSON.stringify(report)}\n`);
  }
}
server.close();
process.exit(0);
