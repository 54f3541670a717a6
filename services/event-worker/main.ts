/** The event-worker service alone (distributed mode; see docker-compose.yml). */
import { runService } from '../runtime/main.js';

await runService('event-worker', ['event-worker']);
