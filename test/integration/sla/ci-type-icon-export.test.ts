/**
 * Spec 2.13: the SLA exports name each CI's type with its icon object (`{id, name, fileName,
 * userspaceId, iconUrl}`, null for a type without one), and the iconUrl loads the image. The
 * CSV (spec 2.15) names the type only, so the icon is not in it. Problems carry the icon too.
 */
import t from 'tap';
import { call } from '../../support/http.js';
import { ADMIN_TOKEN } from '../../support/platform.js';
import { png } from '../../support/png.js';
import { ADMIN_API } from '../cmdb/cmdb-kit.js';
import { parseCsv, SlaKit } from './sla-kit.js';

const k = new SlaKit();
const H = 3_600_000;
const day = Date.parse('2026-03-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const range = { start: iso(day), end: iso(day + 24 * H) };

t.before(() => k.startWith());
t.teardown(() => k.stop());

async function ciOfType(typeId: number, wgId: number): Promise<{ id: number; name: string }> {
  const ci = await k.ci({ ownerWorkGroup: { id: wgId }, configItemType: { id: typeId } });
  return { id: ci.id, name: ci.name };
}

t.test('SLA JSON export carries the icon object with iconUrl (events and configItems); null for a type without icon; problems carry it too', async (t) => {
  const uploadAnswer = await call(k.p.base, 'POST', `${ADMIN_API}/config-item-type-icons?name=Mainframe&fileName=mainframe.png`, {
    body: png(16, 16),
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'image/png' },
  });
  t.equal(uploadAnswer.status, 201, uploadAnswer.text);
  const uploaded = uploadAnswer.body;
  const withBuiltIn = await k.api('POST', `${ADMIN_API}/config-item-types`, { json: { name: 'Database', description: 'DB hosts', iconId: 3 } });
  const withUpload = await k.api('POST', `${ADMIN_API}/config-item-types`, { json: { name: 'Mainframe', description: '', iconId: uploaded.id } });
  t.equal(withBuiltIn.status, 201, withBuiltIn.text);
  const wg = await k.workGroup();
  const db = await ciOfType(withBuiltIn.body.id, wg.id);
  const mf = await ciOfType(withUpload.body.id, wg.id);
  const plain = await ciOfType(k.defaultType.id, wg.id);

  const stream = await k.stream();
  await k.trigger(stream.id, { name: k.uniq('down') });
  for (const host of [db.name, mf.name, plain.name]) {
    await k.post(stream.key, [
      { '@timestamp': iso(day + 2 * H), check: 'cpu', host, severity: 'critical' },
      { '@timestamp': iso(day + 3 * H), check: 'cpu', host, status: 'ok' },
    ]);
  }
  const template = await k.template({ type: 'Single', configItems: [{ id: db.id }, { id: mf.id }, { id: plain.id }] });
  const report = await k.finished(await k.ordered({ template: { id: template.id }, range }));
  t.equal(report.status, 'Ok', report.error ?? '');

  const builtInIcon = { id: 3, name: 'Database', fileName: null, userspaceId: 1, iconUrl: '/api/public/sm/v2/rsm/config-item-type-icons/3' };
  const uploadedIcon = { id: uploaded.id, name: 'Mainframe', fileName: 'mainframe.png', userspaceId: 1, iconUrl: uploaded.iconUrl };
  const expected = new Map<number, unknown>([
    [db.id, { id: withBuiltIn.body.id, name: 'Database', description: 'DB hosts', icon: builtInIcon, userspaceId: 1 }],
    [mf.id, { id: withUpload.body.id, name: 'Mainframe', description: '', icon: uploadedIcon, userspaceId: 1 }],
    [plain.id, { id: k.defaultType.id, name: k.defaultType.name, description: k.defaultType.description, icon: null, userspaceId: 1 }],
  ]);

  const events = await k.exportOf(report.id, '?format=json&exportType=events');
  t.equal(events.status, 200, events.text);
  t.equal(events.body.length, 3);
  for (const row of events.body) {
    const ci = row.configItems[0];
    t.same(ci.configItemType, expected.get(ci.id), `event export: CI ${ci.name}`);
  }
  const cis = await k.exportOf(report.id, '?format=json&exportType=configItems');
  t.equal(cis.body.length, 3);
  for (const row of cis.body) t.same(row.configItem.configItemType, expected.get(row.configItem.id), `CI export: CI ${row.configItem.name}`);

  for (const icon of [builtInIcon, uploadedIcon]) {
    const image = await fetch(k.p.base + icon.iconUrl);
    t.equal(image.status, 200, `${icon.iconUrl} loads without a token`);
    t.equal(image.headers.get('content-type'), icon.fileName ? 'image/png' : 'image/svg+xml');
    await image.arrayBuffer();
  }

  const csv = parseCsv((await k.exportOf(report.id, '?format=csv&exportType=configItems')).text);
  t.same(csv[0]!.slice(0, 3), ['Id', 'Name', 'ConfigItemType'], 'spec 2.15: the CSV names the type, not its icon');
  t.same(
    csv
      .slice(1)
      .map((row) => row[2])
      .sort(),
    ['Database', 'Mainframe', k.defaultType.name].sort(),
  );

  const problems = await k.api('GET', `/api/public/sm/v1/problems?state=all&configItemIds=${db.id},${plain.id}`);
  t.equal(problems.status, 200, problems.text);
  type Item = { configItem: { id: number; configItemType: { icon: unknown } } };
  t.same(
    Object.fromEntries(problems.body.items.map((p: Item) => [p.configItem.id, p.configItem.configItemType.icon])),
    { [db.id]: builtInIcon, [plain.id]: null },
    'the problems API names the type with its icon',
  );
});
