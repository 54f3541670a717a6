/** The ingress service alone (distributed mode; see docker-compose.yml). */
import { runService } from '../run-service.js';
import { ingressPart } from './ingress.part.js';

await runService('ingress', [ingressPart], 'alone');
