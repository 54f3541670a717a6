/**
 * The piscina task of the dispatcher's send threads (send-pool.ts): one attempt to hand one
 * message to one receiver, sendToReceiver as the main thread would run it. A thread keeps its own
 * keep-alive connections and address policy between tasks; it runs many sends at once (they wait
 * on the network, not on its CPU).
 */
import http from 'node:http';
import https from 'node:https';
import type { NotificationMessage } from '../../schemas/notification-events.schema.js';
import type { ReceiverRecord } from '../control-plane/notifications/notifications.types.js';
import { type AddressPolicy, type AllowedNetwork, createAddressPolicy } from '../runtime/outbound/address-policy.js';
import { type Attempt, keepAliveAgents, sendToReceiver } from './receiver-send.js';

export interface SendTask {
  message: NotificationMessage;
  receiver: ReceiverRecord;
  allowNetworks: readonly AllowedNetwork[];
  consoleUrl: string;
  now: number;
  timeoutMs: number;
}

const agents: { http: http.Agent; https: https.Agent } = keepAliveAgents();
let policy: { key: string; policy: AddressPolicy } | undefined;

const policyFor = (networks: readonly AllowedNetwork[]): AddressPolicy => {
  const key = JSON.stringify(networks);
  if (policy?.key !== key) policy = { key, policy: createAddressPolicy(networks) };
  return policy.policy;
};

export default function send(task: SendTask): Promise<Attempt> {
  return sendToReceiver(task.message, task.receiver, { policy: policyFor(task.allowNetworks), consoleUrl: task.consoleUrl, now: task.now, timeoutMs: task.timeoutMs, agents });
}
