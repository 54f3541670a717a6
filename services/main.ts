/** `npm start`: the whole platform in one process (embedded engines unless the environment names servers). */

import { parts } from './parts.js';
import { runService } from './run-service.js';

await runService('platform', parts, 'whole');
