/**
 * The `webhook` receiver: CloudEvents 1.0 in structured mode, signed per Standard Webhooks 1.0.
 *
 * Body. One event is one CloudEvent (`content-type: application/cloudevents+json`):
 *   { specversion: '1.0', id, source, type: 'com.opsplatform.<kind>', subject, time,
 *     datacontenttype: 'application/json', data: <the event, as in the OpenAPI document> }
 * `id` is the message's deliveryId (the Standard Webhooks `webhook-id`), so a receiver dedupes
 * on either. A group of several events is a CloudEvents JSON batch
 * (`content-type: application/cloudevents-batch+json`): an array of the same objects, the i-th
 * with `id` `<deliveryId>.<i>` (i from 0). `subject` is `problems/<id>`, `cmdb/ci/<id>` or
 * `maintenance/<id>`. `source` is `/ops-platform` unless the settings name another. The event
 * goes into `data` unchanged (JSON escapes everything; nothing is clipped: it is for machines),
 * but for a lone surrogate in a string, which is not Unicode and which some JSON parsers refuse:
 * it is sent as U+FFFD.
 *
 * Signature (https://www.standardwebhooks.com/, spec 1.0):
 *   webhook-id:        deliveryId (the same on every retry)
 *   webhook-timestamp: whole seconds of `now` (this attempt's time: receivers refuse a
 *                      timestamp more than 5 minutes off, so each retry is signed afresh)
 *   webhook-signature: `v1,<base64 HMAC-SHA256("<id>.<timestamp>.<body>")>` keyed with the
 *                      base64-decoded part of the secret after `whsec_`; with several secrets
 *                      (rotation) one such signature per secret, space-separated, in the
 *                      settings' order.
 * A secret is `whsec_` + canonical base64 of 24 to 64 random bytes (the spec's range);
 * `decodeWebhookSecret` is the one check, for the admin API too.
 */
import { createHmac } from 'node:crypto';
import type { NotificationEvent, NotificationMessage } from '../../../schemas/notification-events.schema.js';
import { wellFormed } from './event-text.js';
import { splitCredentials, type FormatContext, type OutboundRequest } from './outbound-request.js';

export interface WebhookSettings {
  url: string;
  /** `whsec_…`, at least one; all sign while a secret is rotated. */
  secrets: readonly string[];
  /** The CloudEvents `source` (a URI-reference); default `/ops-platform`. */
  source?: string;
}

export const CLOUDEVENT_TYPE_PREFIX = 'com.opsplatform.';
export const DEFAULT_SOURCE = '/ops-platform';

export interface CloudEvent {
  specversion: '1.0';
  id: string;
  source: string;
  type: string;
  subject: string;
  time: string;
  datacontenttype: 'application/json';
  data: NotificationEvent;
}

const SECRET_PREFIX = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The key of a `whsec_` secret, or null when it is not one (prefix, canonical base64, 24–64 bytes). */
export function decodeWebhookSecret(secret: string): Buffer | null {
  if (!secret.startsWith(SECRET_PREFIX)) return null;
  const b64 = secret.slice(SECRET_PREFIX.length);
  if (!BASE64.test(b64)) return null;
  const key = Buffer.from(b64, 'base64');
  if (key.length < 24 || key.length > 64 || key.toString('base64') !== b64) return null;
  return key;
}

/** The `webhook-signature` value: one `v1,<base64>` per secret, space-separated. */
export function signWebhook(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  if (secrets.length === 0) throw new Error('webhook receiver: no signing secret');
  const signed = `${id}.${timestampSeconds}.${body}`;
  return secrets
    .map((secret, i) => {
      const key = decodeWebhookSecret(secret);
      // Never the secret itself in the message: it would reach the logs.
      if (key === null) throw new Error(`webhook receiver: secret ${i + 1} is not whsec_ + base64 of 24 to 64 bytes`);
      return `v1,${createHmac('sha256', key).update(signed, 'utf8').digest('base64')}`;
    })
    .join(' ');
}

function subjectOf(event: NotificationEvent): string {
  switch (event.kind) {
    case 'problem.opened':
    case 'problem.acknowledged':
    case 'problem.resolved':
      return `problems/${event.problem.id}`;
    case 'problem.flapping':
    case 'sla.budget_burning':
      return `cmdb/ci/${event.configItem.id}`;
    case 'maintenance.started':
    case 'maintenance.ended':
      return `maintenance/${event.maintenance.id}`;
  }
}

/** One event as a structured-mode CloudEvent (attributes in a fixed order). */
export function cloudEventOf(event: NotificationEvent, id: string, source: string = DEFAULT_SOURCE): CloudEvent {
  return {
    specversion: '1.0',
    id,
    source,
    type: CLOUDEVENT_TYPE_PREFIX + event.kind,
    subject: subjectOf(event),
    time: event.time,
    datacontenttype: 'application/json',
    data: event,
  };
}

const unicodeOnly = (_key: string, value: unknown): unknown => (typeof value === 'string' ? wellFormed(value) : value);

/** The signed request for one message (one event, or a batch for a group). */
export function formatWebhook(message: NotificationMessage, settings: WebhookSettings, ctx: Pick<FormatContext, 'now'>): OutboundRequest {
  if (message.events.length === 0) throw new Error('webhook receiver: a message without events');
  const source = settings.source ?? DEFAULT_SOURCE;
  const [single] = message.events;
  const batch = message.events.length > 1;
  const body =
    single !== undefined && !batch
      ? JSON.stringify(cloudEventOf(single, message.deliveryId, source), unicodeOnly)
      : JSON.stringify(
          message.events.map((e, i) => cloudEventOf(e, `${message.deliveryId}.${i}`, source)),
          unicodeOnly,
        );
  const timestamp = Math.floor(ctx.now / 1000);
  const { url, authorization } = splitCredentials(settings.url);
  const headers: Record<string, string> = {
    'content-type': batch ? 'application/cloudevents-batch+json; charset=utf-8' : 'application/cloudevents+json; charset=utf-8',
    'webhook-id': message.deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(settings.secrets, message.deliveryId, timestamp, body),
  };
  if (authorization !== null) headers.authorization = authorization;
  return { url, method: 'POST', headers, body };
}
