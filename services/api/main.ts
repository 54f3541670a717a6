/** The api service alone (distributed mode; see docker-compose.yml). */
import { runService } from '../run-service.js';
import { apiPart } from './api.part.js';

await runService('api', [apiPart], 'alone');
