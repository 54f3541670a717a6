/**
 * CSV export of SLA reports (spec 2.15, 2.16; DESIGN §9): the spec's columns in order, dates as
 * dd.MM.yyyy HH:mm in the chosen zone, times in whole seconds, multi-valued cells comma-joined in
 * quotes and empty when there are none, an empty End for an open problem.
 */
import t from 'tap';
import { ciColumns, eventColumns, templateColumns, toSeconds, zonedClock } from '../../../../../pipelines/sla/export/columns.js';
import { csvExport } from '../../../../../pipelines/sla/export/csv.js';
import type { SlaCiRowModel, SlaEventRowModel, SlaTemplateRowModel } from '../../../../../schemas/sla-export.schema.js';

async function* from<T>(items: readonly T[]): AsyncIterable<T> {
  yield* items;
}
async function text(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const chunk of chunks) out += chunk;
  return out;
}

const ciType = { id: 3, name: 'Database', description: '', icon: null, userspaceId: 1 };
const eventCi = (id: number, name: string) => ({ id, name, configItemType: ciType, withMaintenance: false, influence: { value: 1, maxInfluence: true }, isIncluded: true });

const events: SlaEventRowModel[] = [
  {
    id: '5b0e6c1e-0000-4000-8000-000000000001',
    isIncluded: true,
    trigger: { id: 7, name: 'Disk full, db-1' },
    dateStart: '2026-03-01T08:15:30.000Z',
    dateEnd: '2026-03-01T09:45:59.999Z',
    duration: 5_429_999,
    priority: 'Problem1',
    tags: [
      { id: 1, name: 'disk', colorName: 'red' },
      { id: 2, name: 'prod', colorName: 'blue' },
    ],
    configItems: [eventCi(11, 'db-1'), eventCi(12, 'db-2')],
    influence: { value: 1, maxInfluence: true },
    incidents: [
      {
        connector: { id: 1, name: 'Jira' },
        incidents: [
          { id: 'INC-1', type: 'incident' },
          { id: 'INC-2', type: 'incident' },
        ],
      },
      { connector: { id: 2, name: 'Mail' }, incidents: [{ id: 'T-9', type: 'ticket' }] },
    ],
  },
  {
    id: '5b0e6c1e-0000-4000-8000-000000000002',
    isIncluded: false,
    trigger: { id: 8, name: 'Web down' },
    dateStart: '2026-07-01T22:00:00.000Z',
    dateEnd: null,
    duration: 1_499,
    priority: 'Problem3',
    tags: [{ id: 3, name: 'net', colorName: 'green' }],
    configItems: [eventCi(13, 'web "edge"')],
    influence: { value: 0.3, maxInfluence: false },
    incidents: [],
  },
  {
    id: '5b0e6c1e-0000-4000-8000-000000000003',
    isIncluded: true,
    trigger: { id: 9, name: 'Ping lost' },
    dateStart: '2026-12-31T23:59:00.000Z',
    dateEnd: '2027-01-01T00:00:00.000Z',
    duration: 60_000,
    priority: 'Problem2',
    tags: [],
    configItems: [],
    influence: { value: 1, maxInfluence: true },
    incidents: [],
  },
];

const share = (percent: number, value: number) => ({ percent, value });
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
    okTime: share(59.99, 3_599_500),
    problemTime: share(30.006, 1_800_400),
    unattendedTime: share(0.004, 1_000),
    maintenanceTime: share(10, 600_000),
    serviceAvailability: 66.65,
    maxDowntime: 1_200,
    problem1EventsCount: 2,
    problem2EventsCount: 1,
    problem3EventsCount: 0,
    problem4EventsCount: 0,
    eventsCount: 3,
  },
  {
    configItem: {
      id: 12,
      name: 'Billing, EU',
      configItemType: { ...ciType, name: 'Service' },
      isIncluded: true,
      withMaintenance: false,
      influence: { value: 1, maxInfluence: true },
      serviceAvailability: 100,
    },
    okTime: share(100, 86_400_000),
    problemTime: share(0, 0),
    unattendedTime: share(0, 0),
    maintenanceTime: share(0, 0),
    serviceAvailability: 100,
    maxDowntime: 0,
    problem1EventsCount: 0,
    problem2EventsCount: 0,
    problem3EventsCount: 0,
    problem4EventsCount: 0,
    eventsCount: 0,
  },
];

const templates: SlaTemplateRowModel[] = [
  {
    name: 'Core',
    weight: 2,
    influence: 0.6667,
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
  },
];

t.test('events: the spec columns in order, dates to the minute, seconds, quoted lists, empty End while open', async (t) => {
  const csv = await text(csvExport(from(events), eventColumns));
  t.equal(
    csv,
    [
      'Id,Problem,Priority,Start,End,Duration,InfluencedCI,Tags,Incidents',
      '5b0e6c1e-0000-4000-8000-000000000001,"Disk full, db-1",Problem1,01.03.2026 08:15,01.03.2026 09:45,5430,"db-1,db-2","disk,prod","INC-1,INC-2,T-9"',
      '5b0e6c1e-0000-4000-8000-000000000002,Web down,Problem3,01.07.2026 22:00,,1,"web ""edge""","net",',
      '5b0e6c1e-0000-4000-8000-000000000003,Ping lost,Problem2,31.12.2026 23:59,01.01.2027 00:00,60,,,',
      '',
    ].join('\n'),
  );
});

t.test('events: dates are shown in the requested time zone, summer time included', async (t) => {
  const csv = await text(csvExport(from(events), eventColumns, { timeZone: 'Europe/Berlin' }));
  const lines = csv.split('\n');
  t.match(lines[1], /,01\.03\.2026 09:15,01\.03\.2026 10:45,/, 'winter: UTC+1');
  t.match(lines[2], /,02\.07\.2026 00:00,,/, 'summer: UTC+2, the next day');
  t.match(lines[3], /,01\.01\.2027 00:59,01\.01\.2027 01:00,/, 'over the new year');
});

t.test('configItems: the spec columns in order, times in seconds, attended = ok + problem + maintenance', async (t) => {
  const csv = await text(csvExport(from(cis), ciColumns));
  t.equal(
    csv,
    [
      'Id,Name,ConfigItemType,Influence,ServiceAvailability,ServiceAvailabilityTime,ProblemTimePercent,ProblemTime,AttendedTime,UnattendedTime,MaintenanceTime,EventsCount,Problem1EventsCount,Problem2EventsCount,Problem3EventsCount,Problem4EventsCount,MaxDownTime',
      '11,db-1,Database,0.3,66.65,3600,30.006,1800,6000,1,600,3,2,1,0,0,1200',
      '12,"Billing, EU",Service,1,100,86400,0,0,86400,0,0,0,0,0,0,0,0',
      '',
    ].join('\n'),
  );
});

t.test('templates (multi): one row per template, times in seconds', async (t) => {
  const csv = await text(csvExport(from(templates), templateColumns));
  t.equal(
    csv,
    [
      'Name,Weight,Influence,ServiceAvailability,OkTime,ProblemTimePercent,ProblemTime,AttendedTime,UnattendedTime,MaintenanceTime,EventsCount,Problem1EventsCount,Problem2EventsCount,Problem3EventsCount,Problem4EventsCount,MaxDownTime',
      'Core,2,0.6667,99.5,3600,0.5,18,3618,0,0,4,1,3,0,0,12',
      '',
    ].join('\n'),
  );
});

t.test('no rows: the header alone', async (t) => {
  t.equal(await text(csvExport(from<SlaEventRowModel>([]), eventColumns)), 'Id,Problem,Priority,Start,End,Duration,InfluencedCI,Tags,Incidents\n');
});

t.test('rows are yielded in batches, the header with the first', async (t) => {
  const chunks: string[] = [];
  for await (const chunk of csvExport(from(events), eventColumns, { batchSize: 2 })) chunks.push(chunk);
  t.equal(chunks.length, 2);
  t.equal(chunks[0]?.split('\n').length, 4, 'header + 2 rows + the trailing newline');
  t.match(chunks[1], /^5b0e6c1e-0000-4000-8000-000000000003,/);
});

t.test('an unknown time zone fails when the export is asked for, before streaming', async (t) => {
  t.throws(() => csvExport(from(events), eventColumns, { timeZone: 'Mars/Olympus' }), RangeError);
});

t.test('seconds round half up; the clock formats and shifts to the zone', async (t) => {
  t.equal(toSeconds(1_499), 1);
  t.equal(toSeconds(1_500), 2);
  t.equal(toSeconds(0), 0);
  const berlin = zonedClock('Europe/Berlin');
  const ms = Date.parse('2026-07-01T22:00:42.123Z');
  t.equal(berlin.format(ms), '02.07.2026 00:00');
  t.equal(new Date(berlin.wallClock(ms)).toISOString(), '2026-07-02T00:00:42.000Z');
  t.equal(zonedClock().timeZone, 'UTC');
});
