/** The parts a process can run; `npm start` runs them all. */

import { apiPart } from './api/api.part.js';
import { eventWorkerPart } from './event-worker/event-worker.part.js';
import { ingressPart } from './ingress/ingress.part.js';
import type { Part } from './platform.js';
import { slaWorkerPart } from './sla-worker/sla-worker.part.js';

export type PartName = 'api' | 'ingress' | 'event-worker' | 'sla-worker';

export const allPartNames: readonly PartName[] = ['api', 'ingress', 'event-worker', 'sla-worker'];

/**
 * In start order; they stop in reverse, after the listener has drained: the API, then the
 * ingress flushes its batches while the event worker still consumes them, then the worker, then
 * the SLA worker (started first, so jobs queued by the API always have their consumer).
 */
export const parts: readonly Part[] = [slaWorkerPart, eventWorkerPart, ingressPart, apiPart];
