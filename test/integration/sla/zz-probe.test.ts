import t from 'tap';
import { SLA, SlaKit } from './sla-kit.js';
const k = new SlaKit();
t.before(() => k.start());
t.teardown(() => k.stop());
t.test('probe', async (t) => {
  const a = await k.api('GET', `${SLA}/ordered/0f8fad5b-d9cb-469f-a165-708677289501/export?format=pdf`, { token: null });
  console.log(a.status, a.text);
  const b = await k.api('POST', `${SLA}/ordered`, { token: null, body: '', headers: { 'content-type': 'application/json' } });
  console.log(b.status, b.text);
  const c = await k.api('POST', `${SLA}/ordered`, { body: '' , headers: { 'content-type': 'application/json' }});
  console.log(c.status, c.text);
  const d = await k.api('POST', `${SLA}/ordered`, { json: {} });
  console.log(d.status, d.text);
  const e = await k.api('GET', `${SLA}/ordered/0F8FAD5B-D9CB-469F-A165-708677289501`);
  console.log(e.status, e.text);
  t.pass();
});
