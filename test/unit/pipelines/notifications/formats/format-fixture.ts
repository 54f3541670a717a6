/**
 * Events for the channel-format tests: one problem (P1 "CPU load high" on web-01, opened
 * 2025-03-01 12:00 UTC), each event kind about it, and names a hostile user could give.
 */
import type { NotificationEvent, NotificationMessage, NotifiedProblem } from '../../../../../schemas/notification-events.schema.js';

export const CONSOLE = 'https://ops.example.com';
export const NOW = Date.parse('2025-03-01T12:05:00.000Z');
export const PROBLEM_ID = '0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b';

/** Markup of every channel, a mention, line breaks (header injection), a bidi override and a lone surrogate. */
export const HOSTILE = `<!channel> @here *bold* _it_ [x](https://evil.example) <script>alert("x")</script> & 'q'\r\nBcc: victim@example.com \u202eexe.txt \ud800 {{DATE(2017-02-14T06:08:39Z, SHORT)}}`;

export function problem(over: Partial<NotifiedProblem> = {}): NotifiedProblem {
  return {
    id: PROBLEM_ID,
    trigger: { id: 5, name: 'CPU load high' },
    configItem: { id: 17, name: 'web-01' },
    priority: 'Problem1',
    dateStart: '2025-03-01T12:00:00.000Z',
    dateEnd: null,
    tags: [{ name: 'env', value: 'prod' }],
    acknowledged: false,
    ...over,
  };
}

export const opened = (p: NotifiedProblem = problem(), id = 'ev-opened'): NotificationEvent => ({ id, time: p.dateStart, kind: 'problem.opened', problem: p });

export const acknowledged = (p: NotifiedProblem = problem({ acknowledged: true }), id = 'ev-ack'): NotificationEvent => ({
  id,
  time: '2025-03-01T12:03:00.000Z',
  kind: 'problem.acknowledged',
  problem: p,
  by: { id: 2, name: 'alice' },
  comment: 'looking at it',
});

export const resolved = (p: NotifiedProblem = problem({ dateEnd: '2025-03-01T13:12:00.000Z' }), id = 'ev-resolved'): NotificationEvent => ({
  id,
  time: p.dateEnd ?? '2025-03-01T13:12:00.000Z',
  kind: 'problem.resolved',
  problem: p,
  resolvedBy: 'record',
  by: null,
});

export const flapping = (): NotificationEvent => ({
  id: 'ev-flap',
  time: '2025-03-01T12:10:00.000Z',
  kind: 'problem.flapping',
  trigger: { id: 5, name: 'CPU load high' },
  configItem: { id: 17, name: 'web-01' },
  transitions: 6,
  windowSeconds: 600,
});

export const maintenanceStarted = (): NotificationEvent => ({
  id: 'ev-mnt',
  time: '2025-03-01T22:00:00.000Z',
  kind: 'maintenance.started',
  maintenance: {
    id: 4,
    title: 'Patch night',
    windowStart: '2025-03-01T22:00:00.000Z',
    windowEnd: '2025-03-02T02:00:00.000Z',
    configItems: [
      { id: 17, name: 'web-01' },
      { id: 18, name: 'web-02' },
    ],
  },
});

export const slaBurning = (): NotificationEvent => ({
  id: 'ev-sla',
  time: '2025-03-01T12:30:00.000Z',
  kind: 'sla.budget_burning',
  template: { id: 1, name: 'Core' },
  configItem: { id: 17, name: 'web-01' },
  burnRate: 14.4,
  threshold: 10,
  budgetLeft: 0.355,
});

export const allKinds = (): NotificationEvent[] => [opened(), acknowledged(), resolved(), flapping(), maintenanceStarted(), slaBurning()];

export const message = (events: NotificationEvent[], deliveryId = 'msg_2Vz8kQ1'): NotificationMessage => ({ deliveryId, policyId: 3, events });

/** `n` opened problems whose trigger and CI names are `name` (ids distinct). */
export function openedMany(n: number, name = 'CPU load high'): NotificationEvent[] {
  return Array.from({ length: n }, (_, i) =>
    opened(problem({ id: `0190a5b2-7c3d-7e4f-8a9b-${String(i).padStart(12, '0')}`, trigger: { id: 5, name }, configItem: { id: 100 + i, name }, priority: 'Problem2' }), `ev-${i}`),
  );
}

/** Every string anywhere in a JSON value. */
export function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}
