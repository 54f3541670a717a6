/** The event-worker service alone (distributed mode; see docker-compose.yml), with the notification dispatcher. */
import { runService } from '../runtime/main.js';

await runService('event-worker', ['event-worker', 'notifications']);
