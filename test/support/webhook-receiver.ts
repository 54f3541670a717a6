/**
 * A REAL webhook receiver for the notification tests (issue #31): node:http on 127.0.0.1, every
 * request's Standard Webhooks signature verified with the `standardwebhooks` package, every
 * request kept in arrival order with its webhook-id and the events its CloudEvents body carries
 * (one event, or a batch). It answers 200, or holds every request without an answer (`hold`),
 * and it can stop listening (connections refused) and listen again on the same port.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Receipt {
  /** Arrival order, from 0. */
  seq: number;
  path: string;
  webhookId: string;
  /** The body as sent (a CloudEvent, or an array of them). */
  body: unknown;
  /** The notification events of the body (each CloudEvent's `data`), in its order. */
  events: ReceivedEvent[];
  /** The status answered; null while held (or never answered). */
  status: number | null;
}

/** What the tests read of a notification event. */
export interface ReceivedEvent {
  id: string;
  kind: string;
  problem?: { id: string; configItem: { id: number } };
}

export class WebhookReceiver {
  readonly receipts: Receipt[] = [];
  /** Why a signature was refused, per request that failed verification. */
  readonly refused: string[] = [];
  /** `answer`: 200 at once; `hold`: no answer until the connection dies. */
  mode: 'answer' | 'hold' = 'answer';
  private port = 0;
  private readonly verifier: Webhook;
  private readonly server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => this.receive(req.url ?? '', req.headers, Buffer.concat(chunks).toString('utf8'), res));
  });

  constructor(secret: string) {
    this.verifier = new Webhook(secret);
  }

  /** Listens on `port` (by default the port it had, else a free one); answers the port. */
  async listen(port = this.port): Promise<number> {
    this.server.listen(port, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  /** Stops listening and drops every connection, held ones too: new connections are refused. */
  async close(): Promise<void> {
    if (!this.server.listening) return;
    const closed = once(this.server, 'close');
    this.server.close();
    this.server.closeAllConnections();
    await closed;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Requests not answered (held, or cut off by the sender's end). */
  held(): Receipt[] {
    return this.receipts.filter((r) => r.status === null);
  }

  private receive(path: string, headers: IncomingHttpHeaders, text: string, res: ServerResponse): void {
    try {
      this.verifier.verify(text, headers as Record<string, string>);
    } catch (error) {
      this.refused.push(`${String(headers['webhook-id'])}: ${String(error)}`);
    }
    const body: unknown = JSON.parse(text);
    const cloudEvents = (Array.isArray(body) ? body : [body]) as Array<{ data: ReceivedEvent }>;
    const receipt: Receipt = { seq: this.receipts.length, path, webhookId: String(headers['webhook-id']), body, events: cloudEvents.map((c) => c.data), status: null };
    this.receipts.push(receipt);
    if (this.mode === 'hold') return;
    receipt.status = 200;
    res.writeHead(200).end();
  }
}

/** Every event received at `path`, each once, in the order first received (bodies in their order). */
export function firstReceived(receipts: readonly Receipt[], path: string, answered = false): ReceivedEvent[] {
  const seen = new Map<string, ReceivedEvent>();
  for (const r of receipts) {
    if (r.path !== path || (answered && r.status === null)) continue;
    for (const e of r.events) if (!seen.has(e.id)) seen.set(e.id, e);
  }
  return [...seen.values()];
}

/** Per CI, the kinds of its problem's events at `path` in the order first received. */
export function kindsByCi(receipts: readonly Receipt[], path: string, answered = false): Record<number, string[]> {
  const kinds: Record<number, string[]> = {};
  for (const e of firstReceived(receipts, path, answered)) if (e.problem) (kinds[e.problem.configItem.id] ??= []).push(e.kind);
  return kinds;
}

/** The webhook-ids received more than once whose bodies are not all the same. */
export function repeatsThatDiffer(receipts: readonly Receipt[]): string[] {
  const first = new Map<string, string>();
  const differ = new Set<string>();
  for (const r of receipts) {
    const body = JSON.stringify(r.body);
    const seen = first.get(r.webhookId);
    if (seen === undefined) first.set(r.webhookId, body);
    else if (seen !== body) differ.add(r.webhookId);
  }
  return [...differ];
}

/** The event ids at `path` carried under more than one webhook-id (the same event in two messages). */
export function eventsUnderSeveralIds(receipts: readonly Receipt[], path: string): string[] {
  const ids = new Map<string, Set<string>>();
  for (const r of receipts) {
    if (r.path !== path) continue;
    for (const e of r.events) ids.set(e.id, (ids.get(e.id) ?? new Set()).add(r.webhookId));
  }
  return [...ids].filter(([, set]) => set.size > 1).map(([id, set]) => `${id} in ${[...set].join(', ')}`);
}
