/** The parts a process can run; `npm start` runs them all. */

import { apiPart } from './api/api.part.js';
import { eventWorkerPart } from './event-worker/event-worker.part.js';
import { ingressPart } from './ingress/ingress.part.js';
import { dispatcherPart } from './notifications/dispatcher.part.js';
import type { Part, PartName } from './part.js';
import { slaWorkerPart } from './sla-worker/sla-worker.part.js';

export const allPartNames: readonly PartName[] = ['api', 'ingress', 'event-worker', 'sla-worker', 'notifications'];

/**
 * In start order; they stop in reverse, after the listener has drained: the API, then the
 * ingress flushes its batches while the event worker still consumes them, then the worker, then
 * the SLA worker (started first, so jobs queued by the API always have their consumer). The
 * notification dispatcher starts before the event worker, so it stops after it: the problem
 * changes the worker's last groups publish are still turned into notification events.
 */
export const parts: readonly Part[] = [slaWorkerPart, dispatcherPart, eventWorkerPart, ingressPart, apiPart];

/** The parts of these names, in start order; `replace` swaps a part for another of its name (tests inject faults this way). */
export function partsNamed(names: readonly PartName[], replace: readonly Part[] = []): Part[] {
  return parts.filter((p) => names.includes(p.name)).map((p) => replace.find((o) => o.name === p.name) ?? p);
}
