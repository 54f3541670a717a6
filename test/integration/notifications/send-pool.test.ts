/**
 * Issue #31, where the dispatcher's attempts run (services/notifications/send-pool.ts): on piscina
 * threads (OPS_NOTIFY_SEND_THREADS ≥ 1) or on the main thread (0), to a real node:http receiver.
 * Both ways send several messages at once, apply the address rules, and end the sends under way
 * when the dispatcher stops.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import type { ReceiverRecord } from '../../../services/control-plane/notifications/notifications.types.js';
import { createSender } from '../../../services/notifications/send-pool.js';
import { message, opened } from '../../unit/pipelines/notifications/formats/format-fixture.js';
import { receiverFields } from './directory-fixtures.js';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const LOOPBACK = [{ address: '127.0.0.1', prefix: 32, family: 'ipv4' as const }];
const AT_ONCE = 4;

/** A receiver that answers nothing until `release` is called; it records each request's webhook-id. */
async function heldReceiver(t: Test) {
  const held: ServerResponse[] = [];
  const ids: string[] = [];
  let arrived = (): void => undefined;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      ids.push(String(req.headers['webhook-id']));
      held.push(res);
      arrived();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return {
    ids,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    /** Resolves once `n` requests are held. */
    until: (n: number) =>
      new Promise<void>((resolve) => {
        arrived = () => held.length >= n && resolve();
        arrived();
      }),
    release: () => held.splice(0).forEach((res) => res.writeHead(200).end('ok')),
  };
}

const webhook = (url: string): ReceiverRecord => ({ ...receiverFields(1, 'hook', 1, '2026-11-25T00:00:00.000Z'), type: 'webhook', url, secrets: [SECRET] }) as ReceiverRecord;

for (const threads of [1, 0]) {
  const where = threads === 0 ? 'on the main thread' : 'on a send thread';

  t.test(`${where}: several messages are sent at once, each with its delivery id as webhook-id`, async (t) => {
    const receiver = await heldReceiver(t);
    const stop = new AbortController();
    const sender = createSender({ threads, allowNetworks: LOOPBACK, consoleUrl: 'http://localhost:8080/', signal: stop.signal });
    t.teardown(() => sender.close());
    const ids = Array.from({ length: AT_ONCE }, (_, i) => `msg_${threads}_${i}`);
    const attempts = Promise.all(ids.map((id) => sender.send(message([opened()], id), webhook(receiver.url), { now: Date.now(), timeoutMs: 60_000 })));
    // Nothing is answered before all of them arrived: sent one after another, the first would wait for good.
    await receiver.until(AT_ONCE);
    receiver.release();
    for (const attempt of await attempts) t.match(attempt, { result: { kind: 'answer', status: 200 }, statusCode: 200 });
    t.same([...receiver.ids].sort(), ids, 'one request per message, its webhook-id the delivery id');
  });

  t.test(`${where}: an address the rules refuse is a failure not to retry`, async (t) => {
    const receiver = await heldReceiver(t);
    const stop = new AbortController();
    const sender = createSender({ threads, allowNetworks: [], consoleUrl: 'http://localhost:8080/', signal: stop.signal });
    t.teardown(() => sender.close());
    const attempt = await sender.send(message([opened()]), webhook(receiver.url), { now: Date.now(), timeoutMs: 60_000 });
    t.match(attempt, { result: { kind: 'failure', transient: false, reason: /loopback/ }, statusCode: null });
    t.same(receiver.ids, [], 'nothing reached the receiver');
  });

  t.test(`${where}: a stop ends the sends under way as failures to try again`, async (t) => {
    const receiver = await heldReceiver(t);
    const stop = new AbortController();
    const sender = createSender({ threads, allowNetworks: LOOPBACK, consoleUrl: 'http://localhost:8080/', signal: stop.signal });
    t.teardown(() => sender.close());
    const attempt = sender.send(message([opened()]), webhook(receiver.url), { now: Date.now(), timeoutMs: 60_000 });
    await receiver.until(1);
    stop.abort(new Error('the dispatcher is stopping'));
    t.match(await attempt, { result: { kind: 'failure', transient: true }, statusCode: null, latencyMs: null });
  });
}
