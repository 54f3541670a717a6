/** The sla-worker service alone (distributed mode; see docker-compose.yml). */
import { runService } from '../run-service.js';
import { slaWorkerPart } from './sla-worker.part.js';

await runService('sla-worker', [slaWorkerPart], 'alone');
