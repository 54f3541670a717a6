/**
 * A receiver as the API shows it (issue #31): its secrets are write-only. Webhook secrets, the
 * PagerDuty routing key and the SMTP password are never shown, only that they are set
 * (`secretsCount`, `hasRoutingKey`, `hasPassword`). URLs are shown with the parts that carry
 * credentials as `***`: the user info, every query value (a Teams workflow's `sig`, a `token=`),
 * the fragment, and for Slack the path after its first segment (an incoming webhook's URL is
 * itself the secret: `/services/T…/B…/<token>`).
 */
import type { ReceiverModel } from '../../../schemas/notifications.schema.js';
import type { ReceiverRecord } from './notifications.types.js';

const HIDDEN = '***';

/** `url` with its credentials hidden; `secretPath`: the path after its first segment too. */
export function redactUrl(text: string, secretPath = false): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return HIDDEN;
  }
  if (url.username !== '') url.username = HIDDEN;
  if (url.password !== '') url.password = HIDDEN;
  if (url.search !== '') {
    const names = url.search
      .slice(1)
      .split('&')
      .map((pair) => pair.split('=')[0]!);
    url.search = names.map((name) => `${name}=${HIDDEN}`).join('&');
  }
  if (url.hash !== '') url.hash = HIDDEN;
  if (secretPath) {
    const first = url.pathname.split('/')[1] ?? '';
    if (url.pathname.length > first.length + 2) url.pathname = `/${first}/${HIDDEN}`;
  }
  return url.href;
}

export function receiverView(receiver: ReceiverRecord): ReceiverModel {
  const common = {
    id: receiver.id,
    name: receiver.name,
    ownerWorkGroup: { id: receiver.ownerWorkGroup.id },
    enabled: receiver.enabled,
    disabledReason: receiver.disabledReason,
    rateLimitPerSecond: receiver.rateLimitPerSecond,
    maxAgeHours: receiver.maxAgeHours,
    createdAt: receiver.createdAt,
    updatedAt: receiver.updatedAt,
  };
  switch (receiver.type) {
    case 'webhook':
      return { ...common, type: 'webhook', url: redactUrl(receiver.url), secretsCount: receiver.secrets.length };
    case 'slack':
      return { ...common, type: 'slack', url: redactUrl(receiver.url, true) };
    case 'teams':
      return { ...common, type: 'teams', url: redactUrl(receiver.url) };
    case 'pagerduty':
      return { ...common, type: 'pagerduty', url: redactUrl(receiver.url), hasRoutingKey: receiver.routingKey !== '' };
    case 'alertmanager':
      return { ...common, type: 'alertmanager', url: redactUrl(receiver.url), resendSeconds: receiver.resendSeconds };
    case 'email': {
      const { host, port, secure, user, password } = receiver.smtp;
      return { ...common, type: 'email', smtp: { host, port, secure, user, hasPassword: password !== null }, from: receiver.from, to: [...receiver.to] };
    }
  }
}
