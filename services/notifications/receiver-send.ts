/**
 * One attempt to hand one message to one receiver (issue #31): the receiver type's format
 * (pipelines/notifications/formats/) builds the request(s), the outbound client sends them under
 * the SSRF guard. Email goes over SMTP with nodemailer. The answer is an AttemptResult for
 * delivery-outcome.ts to judge; a message of several requests (PagerDuty: one per event) stops
 * at the first that is not a 2xx, and is sent again whole (each request is idempotent there:
 * PagerDuty dedupes on the problem id).
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import nodemailer from 'nodemailer';
import type { AttemptResult } from '../../pipelines/notifications/delivery-outcome.js';
import { formatAlertmanager } from '../../pipelines/notifications/formats/alertmanager.js';
import { formatEmail } from '../../pipelines/notifications/formats/email.js';
import type { OutboundRequest } from '../../pipelines/notifications/formats/outbound-request.js';
import { formatPagerDuty } from '../../pipelines/notifications/formats/pagerduty.js';
import { formatSlack } from '../../pipelines/notifications/formats/slack.js';
import { formatTeams } from '../../pipelines/notifications/formats/teams.js';
import { formatWebhook } from '../../pipelines/notifications/formats/webhook.js';
import type { NotificationMessage } from '../../schemas/notification-events.schema.js';
import type { ReceiverRecord } from '../control-plane/notifications/notifications.types.js';
import { isAppError } from '../../schemas/errors.js';
import type { AddressPolicy } from '../runtime/outbound/address-policy.js';
import { resolveForSend, send, type SendOptions } from '../runtime/outbound/outbound-client.js';

/** Connections kept open to one receiver host at most: its partitions send at once, beyond that they queue. */
const SOCKETS_PER_HOST = 32;

/** Connections kept open between messages. */
export const keepAliveAgents = (maxSockets = SOCKETS_PER_HOST): { http: http.Agent; https: https.Agent } => ({
  http: new http.Agent({ keepAlive: true, maxSockets }),
  https: new https.Agent({ keepAlive: true, maxSockets }),
});

export interface SendContext {
  policy: AddressPolicy;
  /** Keep-alive pools: one connection per message would cost a TCP (and TLS) handshake each. */
  agents?: SendOptions['agents'];
  consoleUrl: string;
  now: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface Attempt {
  result: AttemptResult;
  /** The HTTP status (SMTP reply code for email) of the last answer; null when none came. */
  statusCode: number | null;
  latencyMs: number | null;
}

/** The requests of one message for an HTTP receiver (none: nothing to send, e.g. Alertmanager and a maintenance event). */
function requestsOf(message: NotificationMessage, receiver: Exclude<ReceiverRecord, { type: 'email' }>, ctx: SendContext): OutboundRequest[] {
  switch (receiver.type) {
    case 'webhook':
      return [formatWebhook(message, { url: receiver.url, secrets: receiver.secrets }, { now: ctx.now })];
    case 'slack':
      return [formatSlack(message, { url: receiver.url }, { consoleUrl: ctx.consoleUrl })];
    case 'teams':
      return [formatTeams(message, { url: receiver.url }, { consoleUrl: ctx.consoleUrl })];
    case 'pagerduty':
      return formatPagerDuty(message, { routingKey: receiver.routingKey, url: receiver.url }, { consoleUrl: ctx.consoleUrl });
    case 'alertmanager': {
      const request = formatAlertmanager(message, { url: receiver.url }, { consoleUrl: ctx.consoleUrl, now: ctx.now, resendEveryMs: receiver.resendSeconds * 1000 });
      return request ? [request] : [];
    }
  }
}

const failureOf = (error: unknown): AttemptResult =>
  isAppError(error)
    ? { kind: 'failure', transient: error.kind === 'unavailable', reason: error.message }
    : { kind: 'failure', transient: true, reason: error instanceof Error ? error.message : String(error) };

async function sendHttp(requests: OutboundRequest[], ctx: SendContext): Promise<Attempt> {
  let last: Attempt = { result: { kind: 'answer', status: 204, retryAfter: undefined }, statusCode: null, latencyMs: null };
  for (const request of requests) {
    try {
      const response = await send(request, {
        policy: ctx.policy,
        timeoutMs: ctx.timeoutMs,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        ...(ctx.agents ? { agents: ctx.agents } : {}),
      });
      const retryAfter = response.headers['retry-after'];
      last = {
        result: { kind: 'answer', status: response.status, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter },
        statusCode: response.status,
        latencyMs: response.latencyMs,
      };
      if (response.status < 200 || response.status >= 300) return last;
    } catch (error) {
      return { result: failureOf(error), statusCode: null, latencyMs: null };
    }
  }
  return last;
}

/**
 * SMTP: the server's name is resolved and its addresses checked against the address rules, as
 * an HTTP receiver's are, and nodemailer connects to a checked address (the name kept for TLS), so
 * a name that changes its answer in between reaches no address the rules refuse.
 */
async function sendEmail(message: NotificationMessage, receiver: Extract<ReceiverRecord, { type: 'email' }>, ctx: SendContext): Promise<Attempt> {
  let address: string;
  try {
    const [first] = await resolveForSend(receiver.smtp.host, ctx.policy, { timeoutMs: ctx.timeoutMs, what: 'SMTP host' });
    address = first!.address;
  } catch (error) {
    return { result: failureOf(error), statusCode: null, latencyMs: null };
  }
  const mail = formatEmail(message, { from: receiver.from, to: receiver.to }, { consoleUrl: ctx.consoleUrl });
  const transport = nodemailer.createTransport({
    host: address,
    port: receiver.smtp.port,
    tls: { servername: isIP(receiver.smtp.host) === 0 ? receiver.smtp.host : undefined },
    secure: receiver.smtp.secure,
    ...(receiver.smtp.user ? { auth: { user: receiver.smtp.user, pass: receiver.smtp.password ?? '' } } : {}),
    connectionTimeout: ctx.timeoutMs,
    socketTimeout: ctx.timeoutMs,
  });
  const started = performance.now();
  try {
    await transport.sendMail(mail);
    return { result: { kind: 'answer', status: 250, retryAfter: undefined }, statusCode: 250, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode;
    // SMTP 5xx is a permanent refusal, 4xx a temporary one.
    if (typeof code === 'number' && code >= 500) return { result: { kind: 'failure', transient: false, reason: `SMTP ${code}` }, statusCode: code, latencyMs: null };
    return {
      result: { kind: 'failure', transient: true, reason: typeof code === 'number' ? `SMTP ${code}` : 'SMTP connection failed' },
      statusCode: code ?? null,
      latencyMs: null,
    };
  } finally {
    transport.close();
  }
}

export function sendToReceiver(message: NotificationMessage, receiver: ReceiverRecord, ctx: SendContext): Promise<Attempt> {
  if (receiver.type === 'email') return sendEmail(message, receiver, ctx);
  let requests: OutboundRequest[];
  try {
    requests = requestsOf(message, receiver, ctx);
  } catch (error) {
    // A format that cannot build the request (a bad secret): the receiver's settings are wrong.
    return Promise.resolve({ result: { kind: 'failure', transient: false, reason: error instanceof Error ? error.message : String(error) }, statusCode: null, latencyMs: null });
  }
  return sendHttp(requests, ctx);
}
