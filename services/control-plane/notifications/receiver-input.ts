/**
 * A receiver as sent, checked and turned into its record (issue #31). The schema has checked the
 * form of each field; here: what it cannot say — URLs are http: or https:, webhook secrets decode
 * to 24–64 bytes (the same check the webhook format signs with), no secret or recipient twice, a
 * PATCH names only fields of the receiver's type. Every problem is reported at once, each with
 * its path in the body, as one 400. The defaults are filled in here.
 */
import { decodeWebhookSecret } from '../../../pipelines/notifications/formats/webhook.js';
import { PAGERDUTY_EVENTS_URL, RECEIVER_DEFAULTS, type ReceiverCreateBody, type ReceiverPatchBody, type ReceiverType } from '../../../schemas/notifications.schema.js';
import { type FieldError, failFields } from '../../../schemas/errors.js';
import type { ReceiverRecord, SmtpSettings } from './notifications.types.js';

/** The fields each type has besides the common ones. */
const OWN_FIELDS: Readonly<Record<ReceiverType, readonly string[]>> = {
  webhook: ['url', 'secrets'],
  slack: ['url'],
  teams: ['url'],
  pagerduty: ['url', 'routingKey'],
  alertmanager: ['url', 'resendSeconds'],
  email: ['smtp', 'from', 'to'],
};
const TYPE_FIELDS = ['url', 'secrets', 'routingKey', 'resendSeconds', 'smtp', 'from', 'to'] as const;

const defaultRate = (type: ReceiverType): number => (type === 'slack' ? RECEIVER_DEFAULTS.slackRateLimitPerSecond : RECEIVER_DEFAULTS.rateLimitPerSecond);

/** The record a create body makes (not yet checked: checkReceiver). */
export function receiverOfBody(body: ReceiverCreateBody, id: number, now: string): ReceiverRecord {
  const common = {
    id,
    name: body.name,
    ownerWorkGroup: { id: body.ownerWorkGroup.id },
    enabled: body.enabled ?? true,
    disabledReason: null,
    rateLimitPerSecond: body.rateLimitPerSecond ?? defaultRate(body.type),
    maxAgeHours: body.maxAgeHours ?? RECEIVER_DEFAULTS.maxAgeHours,
    createdAt: now,
    updatedAt: now,
  };
  switch (body.type) {
    case 'webhook':
      return { ...common, type: 'webhook', url: body.url, secrets: [...body.secrets] };
    case 'slack':
      return { ...common, type: 'slack', url: body.url };
    case 'teams':
      return { ...common, type: 'teams', url: body.url };
    case 'pagerduty':
      return { ...common, type: 'pagerduty', url: body.url ?? PAGERDUTY_EVENTS_URL, routingKey: body.routingKey };
    case 'alertmanager':
      return { ...common, type: 'alertmanager', url: body.url, resendSeconds: body.resendSeconds ?? RECEIVER_DEFAULTS.resendSeconds };
    case 'email': {
      const smtp: SmtpSettings = { host: body.smtp.host, port: body.smtp.port, secure: body.smtp.secure, user: body.smtp.user ?? null, password: body.smtp.password ?? null };
      return { ...common, type: 'email', smtp, from: body.from, to: [...body.to] };
    }
  }
}

/** The record a PATCH makes of the stored one (not yet checked); 400 for a field of another type. */
export function patchedReceiver(current: ReceiverRecord, patch: ReceiverPatchBody, now: string): ReceiverRecord {
  if (patch.type !== undefined && patch.type !== current.type) {
    throw failFields('notification_receiver.type_fixed', [{ path: '/type', message: `is ${current.type}; it cannot change` }]);
  }
  const foreign = TYPE_FIELDS.filter((field) => patch[field] !== undefined && !OWN_FIELDS[current.type].includes(field));
  if (foreign.length > 0) {
    throw failFields(
      'notification_receiver.invalid',
      foreign.map((field) => ({ path: `/${field}`, message: `is not a field of a ${current.type} receiver` })),
    );
  }
  const enabledChanged = patch.enabled !== undefined;
  const common = {
    name: patch.name ?? current.name,
    ownerWorkGroup: patch.ownerWorkGroup ? { id: patch.ownerWorkGroup.id } : current.ownerWorkGroup,
    enabled: patch.enabled ?? current.enabled,
    // Enabled or disabled by hand: the platform's reason no longer holds.
    disabledReason: enabledChanged ? null : current.disabledReason,
    rateLimitPerSecond: patch.rateLimitPerSecond ?? current.rateLimitPerSecond,
    maxAgeHours: patch.maxAgeHours ?? current.maxAgeHours,
    updatedAt: now,
  };
  switch (current.type) {
    case 'webhook':
      return { ...current, ...common, url: patch.url ?? current.url, secrets: patch.secrets ? [...patch.secrets] : current.secrets };
    case 'slack':
    case 'teams':
      return { ...current, ...common, url: patch.url ?? current.url };
    case 'pagerduty':
      return { ...current, ...common, url: patch.url ?? current.url, routingKey: patch.routingKey ?? current.routingKey };
    case 'alertmanager':
      return { ...current, ...common, url: patch.url ?? current.url, resendSeconds: patch.resendSeconds ?? current.resendSeconds };
    case 'email': {
      const given = patch.smtp ?? {};
      const smtp: SmtpSettings = {
        host: given.host ?? current.smtp.host,
        port: given.port ?? current.smtp.port,
        secure: given.secure ?? current.smtp.secure,
        user: given.user !== undefined ? given.user : current.smtp.user,
        password: given.password !== undefined ? given.password : current.smtp.password,
      };
      return { ...current, ...common, smtp, from: patch.from ?? current.from, to: patch.to ? [...patch.to] : current.to };
    }
  }
}

function checkUrlForm(url: string, path: string, problems: FieldError[]): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    problems.push({ path, message: 'must be an absolute URL' });
    return;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') problems.push({ path, message: 'must be an http: or https: URL' });
}

function noneTwice(values: readonly string[], path: string, problems: FieldError[], same: (v: string) => string = (v) => v): void {
  const seen = new Set<string>();
  values.forEach((value, i) => {
    if (seen.has(same(value))) problems.push({ path: `${path}/${i}`, message: 'is listed twice' });
    seen.add(same(value));
  });
}

/** 400 listing every field of the record the schema could not judge; returns it when valid. */
export function checkReceiver(receiver: ReceiverRecord): ReceiverRecord {
  const problems: FieldError[] = [];
  if (receiver.type !== 'email') checkUrlForm(receiver.url, '/url', problems);
  if (receiver.type === 'webhook') {
    receiver.secrets.forEach((secret, i) => {
      // Never the secret itself in the answer: only where it is and what is wrong.
      if (decodeWebhookSecret(secret) === null) problems.push({ path: `/secrets/${i}`, message: 'must be whsec_ followed by the canonical base64 of 24 to 64 bytes' });
    });
    noneTwice(receiver.secrets, '/secrets', problems);
  }
  if (receiver.type === 'email') {
    noneTwice(receiver.to, '/to', problems, (address) => address.toLowerCase());
    if (receiver.smtp.password !== null && receiver.smtp.user === null) problems.push({ path: '/smtp/user', message: 'is required with a password' });
  }
  if (problems.length > 0) throw failFields('notification_receiver.invalid', problems);
  return receiver;
}

/** The URLs the outbound address rules must allow, each with its path in the body (the SMTP server as a URL of its host). */
export function outboundTargets(receiver: ReceiverRecord): Array<{ path: string; url: string }> {
  if (receiver.type !== 'email') return [{ path: '/url', url: receiver.url }];
  const host = receiver.smtp.host.includes(':') && !receiver.smtp.host.startsWith('[') ? `[${receiver.smtp.host}]` : receiver.smtp.host;
  return [{ path: '/smtp/host', url: `http://${host}:${receiver.smtp.port}/` }];
}
