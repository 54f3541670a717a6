/**
 * Issue #15: limits on what a caller may send, checked by the schemas (so they are in the OpenAPI
 * document): names and titles of at most 255 characters, descriptions of 4 000, label names of
 * 1–128 characters without control characters, label values of 1 024 and the types the spec
 * says, at most 100 labels. Each refusal is a 400 that stores nothing; a label name holding a
 * newline no longer slips past the check and breaks the maintenance search.
 */
import t from 'tap';
import { CIS, isProblem, Kit, type Named } from './cmdb-kit.js';

const MAINT = '/api/public/sm/v1/rsm-maintenance';
const k = new Kit();
let wg: Named;
t.before(async () => {
  await k.start();
  wg = await k.workGroup();
});
t.teardown(() => k.stop());

const create = (body: Record<string, unknown>) => k.api('POST', CIS, { json: { name: k.uniq('lim'), ownerWorkGroup: { id: wg.id }, ...body } });
const countCis = async (): Promise<number> => (await k.api('GET', CIS)).body.length;

t.test('a CI name over 255 characters, or a description over 4 000, is a 400 and nothing is stored', async (t) => {
  const before = await countCis();
  isProblem(t, await create({ name: 'n'.repeat(256) }), 400, 'validation', undefined, '/name');
  isProblem(t, await create({ name: 'x'.repeat(1024 * 1024) }), 400, 'validation', undefined, '/name');
  isProblem(t, await create({ description: 'd'.repeat(4001) }), 400, 'validation', undefined, '/description');
  t.equal(await countCis(), before);
  t.equal((await create({ name: 'n'.repeat(255), description: 'd'.repeat(4000) })).status, 201, 'at the limits');
});

t.test('CI labels: a name with a newline or over 128 characters, an object value, a value over 1 024 characters, more than 100 labels: 400', async (t) => {
  const before = await countCis();
  for (const labels of [
    { 'a\nb': 'x' },
    { 'a\nb': { x: 1 } },
    { ['k'.repeat(129)]: 'x' },
    { '': 'x' },
    { env: { x: 1 } },
    { env: 'v'.repeat(1025) },
    { env: ['ok', 3] },
    Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`l${i}`, 'x'])),
  ]) {
    const answer = await create({ labels });
    t.equal(answer.status, 400, JSON.stringify(labels).slice(0, 60));
  }
  t.equal(await countCis(), before);
  t.equal((await create({ labels: { env: 'prod', tiers: ['a', 'b'], flag: null, 'ü ✓ name': 'v'.repeat(1024) } })).status, 201, 'what the spec allows');
});

t.test('maintenance: a title over 255 characters or a label name with a newline is a 400; the search keeps working', async (t) => {
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const mode = (extra: Record<string, unknown>) => ({
    title: 'window',
    dateStart: '2030-01-01T00:00:00Z',
    dateEnd: '2030-01-01T02:00:00Z',
    configItems: [{ id: ci.id, scope: 'Ci' }],
    ...extra,
  });
  isProblem(t, await k.api('POST', MAINT, { json: mode({ title: 't'.repeat(256) }) }), 400, 'validation', undefined, '/title');
  isProblem(t, await k.api('POST', MAINT, { json: mode({ labels: { 'a\nb': { x: 1 } } }) }), 400, 'validation');
  isProblem(t, await k.api('POST', MAINT, { json: mode({ labels: { a: { x: 1 } } }) }), 400, 'validation');
  t.equal((await k.api('POST', MAINT, { json: mode({ labels: { zzz: 'value' } }) })).status, 201);
  const search = await k.api('GET', `${MAINT}?search=zzz`);
  t.equal(search.status, 200);
  t.equal(search.body.length, 1);
});

t.test('a body nesting arrays or objects deeper than 64 levels is a 400 naming the limit, not a 500; nothing is stored', async (t) => {
  const before = await countCis();
  // Written out: JSON.stringify itself overflows the stack on the deeper one.
  const body = (levels: number): string => `{"name":"${k.uniq('deep')}","ownerWorkGroup":{"id":${wg.id}},"labels":{"x":${'['.repeat(levels)}"leaf"${']'.repeat(levels)}}}`;
  for (const levels of [65, 100_000]) {
    const answer = await k.api('POST', CIS, { body: body(levels), headers: { 'content-type': 'application/json' } });
    isProblem(t, answer, 400, 'bad-request', /deeper than 64 levels/);
    t.equal(answer.body.code, 'http.body_too_deep');
  }
  t.equal(await countCis(), before);
});
