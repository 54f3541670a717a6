/**
 * Issue #32 (STYLE: the console's API types come from the OpenAPI document, no hand-written copy):
 * services/console/app/api-schema.d.ts is what openapi-typescript makes of the document the
 * platform serves. A route or schema changed without `npm run console:types` fails here.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { API_SCHEMA_FILE, apiSchemaSource } from '../../../services/console/api-types.js';
import { startTestPlatform } from '../../support/platform.js';

t.test("the console's API types are generated from the served OpenAPI document and up to date", async (t) => {
  const p = await startTestPlatform({ logLevel: 'warn' });
  t.teardown(() => p.stop());
  const served = await p.api('GET', '/api/openapi.json', { token: null });
  t.equal(served.status, 200);
  const expected = await apiSchemaSource(served.body);
  t.ok(readFileSync(API_SCHEMA_FILE, 'utf8') === expected, 'app/api-schema.d.ts matches the document (run `npm run console:types`)');
});
