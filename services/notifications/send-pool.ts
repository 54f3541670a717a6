/**
 * Where the dispatcher's attempts run (issue #31): on `OPS_NOTIFY_SEND_THREADS` piscina threads
 * (send.thread.ts), or on the main thread when that is 0. Formatting, signing and the HTTP
 * exchange of a delivery cost about as much of a core as routing and the bus together; on the
 * main thread of an all-in-one process they compete with ingestion and the API for one core. A
 * thread runs many sends at once, since they mostly wait on the network.
 */
import { Piscina } from 'piscina';
import type { NotificationMessage } from '../../schemas/notification-events.schema.js';
import type { ReceiverRecord } from '../control-plane/notifications/notifications.types.js';
import { type AllowedNetwork, createAddressPolicy } from '../runtime/outbound/address-policy.js';
import { type Attempt, keepAliveAgents, sendToReceiver } from './receiver-send.js';
import type { SendTask } from './send.thread.js';

export interface Sender {
  send(message: NotificationMessage, receiver: ReceiverRecord, at: { now: number; timeoutMs: number }): Promise<Attempt>;
  close(): Promise<void>;
}

export interface SenderOptions {
  threads: number;
  allowNetworks: readonly AllowedNetwork[];
  consoleUrl: string;
  /** The dispatcher stopping: the sends under way end at once, as failures to try again. */
  signal: AbortSignal;
}

/** Sends of one thread at once: more than the partitions that feed it. */
const TASKS_PER_THREAD = 64;

const failed = (error: unknown): Attempt => ({
  result: { kind: 'failure', transient: true, reason: error instanceof Error ? error.message : String(error) },
  statusCode: null,
  latencyMs: null,
});

export function createSender(options: SenderOptions): Sender {
  const { threads, allowNetworks, consoleUrl, signal } = options;
  if (threads <= 0) {
    const policy = createAddressPolicy(allowNetworks);
    const agents = keepAliveAgents();
    return {
      send: (message, receiver, at) => sendToReceiver(message, receiver, { policy, consoleUrl, agents, signal, ...at }),
      async close() {
        agents.http.destroy();
        agents.https.destroy();
      },
    };
  }
  const pool = new Piscina<SendTask, Attempt>({
    filename: new URL('./send.thread.ts', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    concurrentTasksPerWorker: TASKS_PER_THREAD,
    // The tasks are asynchronous: the thread's event loop must run between them.
    atomics: 'disabled',
  });
  // Not a signal per task: piscina runs an abortable task alone on its thread. A stop ends the
  // threads instead, and every task under way with them.
  let destroyed: Promise<void> | undefined;
  const destroy = (): Promise<void> => (destroyed ??= pool.destroy());
  signal.addEventListener('abort', () => void destroy(), { once: true });
  return {
    async send(message, receiver, { now, timeoutMs }) {
      try {
        return await pool.run({ message, receiver, allowNetworks, consoleUrl, now, timeoutMs } satisfies SendTask);
      } catch (error) {
        // The thread ended under the task (a stop, or a crash): the message is tried again.
        return failed(signal.aborted ? signal.reason : error);
      }
    },
    close: destroy,
  };
}
