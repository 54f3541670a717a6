/** `npm start`: the whole platform in one process (embedded engines unless the environment names servers). */
import { runService } from './runtime/main.js';
import { allPartNames } from './parts.js';

await runService('platform', allPartNames);
