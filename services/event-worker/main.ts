/** The event-worker service alone (distributed mode; see docker-compose.yml), with the notification dispatcher. */
import { dispatcherPart } from '../notifications/dispatcher.part.js';
import { runService } from '../run-service.js';
import { eventWorkerPart } from './event-worker.part.js';

// In the start order of parts.ts: the dispatcher first, so it stops after the worker.
await runService('event-worker', [dispatcherPart, eventWorkerPart], 'alone');
