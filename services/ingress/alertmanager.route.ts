/**
 * A Prometheus Alertmanager webhook receiver (`webhook_configs`, payload version 4), so alerts
 * reach a stream with no proxy. Each alert is one record: the alert as sent plus the `receiver`
 * and `groupKey` of its notification, dated by `@timestamp` = `startsAt` for a firing alert and
 * `endsAt` for a resolved one. Alertmanager sends Go's zero time (`0001-01-01T00:00:00Z`) as the
 * `endsAt` of a firing alert, and a date the event table cannot hold would be stored clamped, that
 * is at another date: a date that is not usable (by the rule stream-data and `_bulk` apply to
 * `@timestamp`, timestamps.ts dateTimeFault) leaves the record dated by its receipt instead, and
 * the request's log says why with the same message. It is not refused: Alertmanager does not
 * resend on a 4xx, so every alert of the notification would be lost for one bad date.
 *
 * The body is checked against the schema below (400 when it does not match, and 400
 * ingest.alertmanager_version when its `version` is not "4": Alertmanager logs the answer and
 * retries only on 5xx, so a malformed notification is not retried forever). Like
 * stream-data, the answer waits until the bus holds the records; 503 with Retry-After otherwise.
 */
import Type, { type Static } from 'typebox';
import { dateTimeFault } from '../../pipelines/records/timestamps.js';
import { problems } from '../runtime/http/route-kit.js';
import { fail } from '../../schemas/errors.js';
import { defineRoute, json, type Route } from '../runtime/http/route.js';
import { handOver, type ReceiverDeps } from './hand-over.js';
import { authenticateStreamKey } from './stream-key.js';

export const ALERTMANAGER_PATH = '/api/public/cl/v1/alertmanager';

const Status = Type.Union([Type.Literal('firing'), Type.Literal('resolved')]);
const Labels = Type.Record(Type.String(), Type.String());

export const AlertmanagerAlert = Type.Object({
  status: Status,
  labels: Labels,
  annotations: Type.Optional(Labels),
  startsAt: Type.String({ description: 'RFC 3339; the event date of a firing alert' }),
  endsAt: Type.Optional(Type.String({ description: 'RFC 3339; the event date of a resolved alert (0001-01-01T00:00:00Z while firing)' })),
  generatorURL: Type.Optional(Type.String()),
  fingerprint: Type.Optional(Type.String()),
});

/** Alertmanager's webhook body (version 4); fields added within version 4 are let through. */
export const AlertmanagerWebhook = Type.Object({
  version: Type.String({ description: 'The payload version; this receiver reads "4" (400 ingest.alertmanager_version otherwise)' }),
  groupKey: Type.String(),
  truncatedAlerts: Type.Optional(Type.Integer({ minimum: 0 })),
  status: Status,
  receiver: Type.String(),
  groupLabels: Type.Optional(Labels),
  commonLabels: Type.Optional(Labels),
  commonAnnotations: Type.Optional(Labels),
  externalURL: Type.Optional(Type.String()),
  alerts: Type.Array(AlertmanagerAlert),
});
type Webhook = Static<typeof AlertmanagerWebhook>;
type Alert = Webhook['alerts'][number];

/** A notification of one firing and one resolved alert (payload version 4), for the OpenAPI document. */
const WEBHOOK_EXAMPLE = {
  version: '4',
  groupKey: '{}:{alertname="PostgresDown"}',
  truncatedAlerts: 0,
  status: 'firing',
  receiver: 'ops-platform',
  groupLabels: { alertname: 'PostgresDown' },
  commonLabels: { alertname: 'PostgresDown', severity: 'critical' },
  commonAnnotations: {},
  externalURL: 'http://alertmanager:9093',
  alerts: [
    {
      status: 'firing',
      labels: { alertname: 'PostgresDown', instance: 'billing-db:9187', severity: 'critical' },
      annotations: { summary: 'PostgreSQL on billing-db is down' },
      startsAt: '2026-03-01T01:00:00.000Z',
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: 'http://prometheus:9090/graph?g0.expr=pg_up+%3D%3D+0',
      fingerprint: 'a3f1c9e2b4d56780',
    },
    {
      status: 'resolved',
      labels: { alertname: 'PostgresDown', instance: 'billing-db-replica:9187', severity: 'critical' },
      annotations: { summary: 'PostgreSQL on billing-db-replica is down' },
      startsAt: '2026-03-01T00:40:00.000Z',
      endsAt: '2026-03-01T00:55:00.000Z',
      generatorURL: 'http://prometheus:9090/graph?g0.expr=pg_up+%3D%3D+0',
      fingerprint: '5b7e0d4c2a918f36',
    },
  ],
} satisfies Webhook;

/**
 * The record of one alert, as one JSON line, and, when its date cannot date the event, why (the
 * message stream-data and `_bulk` give for such an `@timestamp`, naming `startsAt` or `endsAt`).
 */
export function alertRecord(alert: Alert, notification: Pick<Webhook, 'receiver' | 'groupKey'>): { line: string; dateFault?: string } {
  const field = alert.status === 'resolved' ? 'endsAt' : 'startsAt';
  const date = alert[field];
  const record: Record<string, unknown> = { ...alert, receiver: notification.receiver, groupKey: notification.groupKey };
  // Set or removed, never left as sent: only the alert's own date may date the event.
  // The rule refuses Go's zero time too: year 1 is outside what the event table holds.
  const dateFault = dateTimeFault(date, field);
  if (dateFault === undefined) record['@timestamp'] = date;
  else delete record['@timestamp'];
  const line = JSON.stringify(record);
  return dateFault === undefined ? { line } : { line, dateFault };
}

export function alertmanagerRoute(deps: ReceiverDeps): Route {
  return defineRoute({
    method: 'POST',
    path: ALERTMANAGER_PATH,
    name: 'ingress.alertmanager',
    summary: 'Send an Alertmanager webhook notification to a stream: one record per alert',
    tags: ['stream-data'],
    security: 'streamKeyOrBasic',
    maxBodyBytes: deps.maxBodyBytes,
    schema: {
      query: Type.Object({ streamKey: Type.Optional(Type.String({ description: 'Key of the target stream, unless sent in x-smon-stream-key or as the Basic password' })) }),
      body: AlertmanagerWebhook,
      bodyExample: WEBHOOK_EXAMPLE,
      responses: {
        200: {
          description: 'Every alert is accepted and will be stored',
          schema: Type.Object({ accepted: Type.Integer({ description: 'Alerts stored, one record each' }) }),
          example: { accepted: 2 },
        },
        ...problems(400, 413, 415, 422, 503),
      },
    },
    authenticate: authenticateStreamKey(deps.streams),
    async handler(request) {
      const receivedAt = deps.now();
      const webhook = request.body;
      // Another version may mean other fields under the same names: refused, not guessed at.
      if (webhook.version !== '4') throw fail('ingest.alertmanager_version', { version: JSON.stringify(webhook.version).slice(0, 40) });
      if (webhook.alerts.length === 0) return json(200, { accepted: 0 });
      const records = webhook.alerts.map((alert, i) => {
        const { line, dateFault } = alertRecord(alert, webhook);
        // Not refused (Alertmanager would drop the whole notification): dated by its receipt, and said so here.
        if (dateFault !== undefined) request.log.warn({ alert: i + 1, fingerprint: alert.fingerprint, reason: dateFault }, 'alert dated by its receipt');
        return line;
      });
      await handOver(deps, request.auth.id, receivedAt, 'json', records, 'alert');
      return json(200, { accepted: records.length });
    },
  });
}
