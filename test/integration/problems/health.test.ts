/**
 * Issue #7: health propagates along influence links (DESIGN §7): a dependent CI's health is the
 * minimum of its own and of each influential CI's health, on a chain and on a diamond; a link
 * that would close a cycle is refused with 400 (DESIGN §4a).
 */
import t from 'tap';
import { CIS, ProblemsKit } from './problems-kit.js';

const k = new ProblemsKit();
t.before(() => k.start());
t.teardown(() => k.stop());

const MIN = 60_000;
const ago = (minutes: number) => new Date(k.clock - minutes * MIN).toISOString();
const influences = (dependentId: number, influentialId: number) => k.api('POST', `${CIS}/${dependentId}/influentials`, { json: { id: influentialId } });
const health = async (id: number) => (await k.getCi(id)).healthStatus;

async function cis(n: number) {
  const wg = await k.workGroup();
  const out = [];
  for (let i = 0; i < n; i++) out.push(await k.ci({ ownerWorkGroup: { id: wg.id } }));
  return out;
}

t.test('chain a → b → c: a problem on a lowers b and c; c keeps its own direct health', async (t) => {
  const [a, b, c] = await cis(3);
  t.equal((await influences(b.id, a.id)).status, 200);
  t.equal((await influences(c.id, b.id)).status, 200);
  const stream = await k.stream();
  await k.trigger(stream.id, { influence: { value: 40, maxInfluence: false } });
  await k.post(stream.key, [{ '@timestamp': ago(5), check: 'cpu', host: a.name }]);
  t.match(await health(a.id), { value: 60, calculation: { direct: 60 } });
  t.match(await health(b.id), { value: 60, calculation: { direct: 100 } });
  t.match(await health(c.id), { value: 60, calculation: { direct: 100 } });
  t.equal((await k.getCi(c.id)).state.value, 'Unknown', 'state is the CI’s own, not propagated');
  await k.post(stream.key, [{ '@timestamp': ago(1), check: 'cpu', host: a.name, status: 'ok' }]);
  t.equal((await health(c.id)).value, 100, 'resolving on a restores the whole chain');
});

t.test('diamond a → b, a → c, b → d, c → d: d takes the worst of both paths and of its own', async (t) => {
  const [a, b, c, d] = await cis(4);
  for (const [dep, inf] of [
    [b, a],
    [c, a],
    [d, b],
    [d, c],
  ])
    t.equal((await influences(dep.id, inf.id)).status, 200);
  const streamB = await k.stream();
  const streamD = await k.stream();
  await k.trigger(streamB.id, { influence: { value: 20, maxInfluence: false } });
  await k.trigger(streamD.id, { influence: { value: 10, maxInfluence: false } });
  await k.post(streamB.key, [{ '@timestamp': ago(5), check: 'cpu', host: b.name }]);
  await k.post(streamD.key, [{ '@timestamp': ago(5), check: 'cpu', host: d.name }]);
  t.equal((await health(a.id)).value, 100);
  t.equal((await health(c.id)).value, 100);
  t.match(await health(d.id), { value: 80, calculation: { direct: 90 } });
  const streamA = await k.stream();
  await k.trigger(streamA.id, { influence: { value: 0, maxInfluence: true } });
  await k.post(streamA.key, [{ '@timestamp': ago(4), check: 'cpu', host: a.name }]);
  t.equal((await health(a.id)).value, 0, 'maxInfluence takes the health to 0');
  t.equal((await health(d.id)).value, 0, 'and reaches d through both paths');
});

t.test('two open problems on one CI: the largest influence counts', async (t) => {
  const [a] = await cis(1);
  const s1 = await k.stream();
  const s2 = await k.stream();
  await k.trigger(s1.id, { influence: { value: 25, maxInfluence: false } });
  await k.trigger(s2.id, { influence: { value: 55, maxInfluence: false } });
  await k.post(s1.key, [{ '@timestamp': ago(3), check: 'cpu', host: a.name }]);
  await k.post(s2.key, [{ '@timestamp': ago(2), check: 'cpu', host: a.name }]);
  t.equal((await health(a.id)).value, 45);
});

t.test('400: an influence link that would close a cycle', async (t) => {
  const [a, b, c] = await cis(3);
  t.equal((await influences(b.id, a.id)).status, 200);
  t.equal((await influences(c.id, b.id)).status, 200);
  const cycle = await influences(a.id, c.id);
  t.equal(cycle.status, 400);
  t.equal(cycle.headers.get('content-type'), 'application/problem+json');
  t.match(cycle.body.detail, /cycle/);
});
