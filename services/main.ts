/** `npm start`: the whole platform in one process (embedded engines unless the environment names servers). */

import { allPartNames } from './parts.js';
import { runService } from './runtime/main.js';

await runService('platform', allPartNames);
