/** The sla-worker service alone (distributed mode; see docker-compose.yml). */
import { runService } from '../runtime/main.js';

await runService('sla-worker', ['sla-worker']);
