/**
 * JSON export of SLA reports (spec 2.13, 2.14, 2.16): the stored rows as one array, unchanged
 * (times in milliseconds), written element by element.
 */
import t from 'tap';
import { jsonExport } from '../../../../../pipelines/sla/export/json.js';
import type { SlaCiRowModel, SlaEventRowModel, SlaTemplateRowModel } from '../../../../../schemas/sla-export.schema.js';

async function* from<T>(items: readonly T[]): AsyncIterable<T> {
  yield* items;
}
async function chunksOf(body: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of body) out.push(chunk);
  return out;
}

const ciType = { id: 3, name: 'Database', description: 'DB hosts', icon: { id: 1, name: 'db', fileName: null, userspaceId: 1, iconUrl: '/icons/1' }, userspaceId: 1 };
const events: SlaEventRowModel[] = [
  {
    id: '5b0e6c1e-0000-4000-8000-000000000001',
    isIncluded: true,
    trigger: { id: 7, name: 'Disk full, "db-1" — Ω' },
    dateStart: '2026-03-01T08:15:30.000Z',
    dateEnd: null,
    duration: 5_429_999,
    priority: 'Problem1',
    tags: [{ id: 1, name: 'disk', colorName: 'red' }],
    configItems: [{ id: 11, name: 'db-1', configItemType: ciType, withMaintenance: true, influence: { value: 0.3, maxInfluence: false }, isIncluded: true }],
    influence: { value: 0.3, maxInfluence: false },
    incidents: [{ connector: { id: 1, name: 'Jira' }, incidents: [{ id: 'INC-1', type: 'incident' }] }],
  },
];
const cis: SlaCiRowModel[] = [
  {
    configItem: {
      id: 11,
      name: 'db-1',
      configItemType: ciType,
      isIncluded: true,
      withMaintenance: true,
      influence: { value: 0.3, maxInfluence: false },
      serviceAvailability: 66.65,
    },
    okTime: { percent: 59.99, value: 3_599_500 },
    problemTime: { percent: 30.006, value: 1_800_400 },
    unattendedTime: { percent: 0.004, value: 1_000 },
    maintenanceTime: { percent: 10, value: 600_000 },
    serviceAvailability: 66.65,
    maxDowntime: 1_200,
    problem1EventsCount: 2,
    problem2EventsCount: 1,
    problem3EventsCount: 0,
    problem4EventsCount: 0,
    eventsCount: 3,
  },
];
const template = (name: string): SlaTemplateRowModel => ({
  name,
  weight: 1.5,
  influence: 0.5,
  serviceAvailability: 99.5,
  okTime: 3_599_500,
  problemTimePercent: 0.5,
  problemTime: 18_000,
  attendedTime: 3_617_500,
  unattendedTime: 400,
  maintenanceTime: 0,
  eventsCount: 4,
  problem1EventsCount: 1,
  problem2EventsCount: 3,
  problem3EventsCount: 0,
  problem4EventsCount: 0,
  maxDownTime: 12_499,
});

t.test('events, CIs and templates round-trip to the same rows', async (t) => {
  t.strictSame(JSON.parse((await chunksOf(jsonExport(from(events)))).join('')), events);
  t.strictSame(JSON.parse((await chunksOf(jsonExport(from(cis)))).join('')), cis);
  const templates = [template('Core'), template('Edge')];
  t.strictSame(JSON.parse((await chunksOf(jsonExport(from(templates)))).join('')), templates);
});

t.test('no rows: an empty array', async (t) => {
  t.equal((await chunksOf(jsonExport(from([])))).join(''), '[]');
});

t.test('elements are joined by commas and handed on in chunks of about chunkChars', async (t) => {
  const rows = Array.from({ length: 10 }, (_, i) => template(`T${i}`));
  const chunks = await chunksOf(jsonExport(from(rows), { chunkChars: 1 }));
  t.equal(chunks.length, 11, 'one chunk per element, then the closing bracket');
  t.equal(chunks[0], `[${JSON.stringify(rows[0])}`);
  t.equal(chunks[1], `,${JSON.stringify(rows[1])}`);
  t.equal(chunks[10], ']');
  t.strictSame(JSON.parse(chunks.join('')), rows);
});
