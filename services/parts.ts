/** The parts a process can run; `npm start` runs them all. */
import type { Part } from './platform.js';
import { apiPart } from './api/api.part.js';

export type PartName = 'api' | 'ingress' | 'event-worker' | 'sla-worker';

export const allPartNames: readonly PartName[] = ['api', 'ingress', 'event-worker', 'sla-worker'];

export const parts: readonly Part[] = [apiPart];
