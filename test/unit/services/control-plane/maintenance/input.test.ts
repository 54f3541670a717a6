/** Reading dates, bodies and list queries of spec 4.2: each condition answers with its own message. */
import t from 'tap';
import { parseDateTime, readFullBody, readPatchBody } from '../../../../../services/control-plane/maintenance/maintenance-input.js';
import { parseListQuery, searchMatcher } from '../../../../../services/control-plane/maintenance/maintenance-query.js';
import { isAppError } from '../../../../../schemas/errors.js';
import { modeRecord, T0 } from '../../../../support/model-fixture.js';

const failure = (fn: () => unknown): { kind: string; detail: string; path: string | undefined } => {
  try {
    fn();
  } catch (error) {
    if (isAppError(error)) return { kind: error.kind, detail: error.detail, path: error.errors?.[0]?.path };
    throw error;
  }
  throw new Error('expected a failure');
};

t.test('date-times need an offset; any offset is accepted and read as the same instant', async (t) => {
  t.equal(parseDateTime('2026-11-21T10:00:00Z', '/dateStart'), Date.parse('2026-11-21T10:00:00.000Z'));
  t.equal(parseDateTime('2026-11-21T12:00:00+02:00', '/dateStart'), Date.parse('2026-11-21T10:00:00.000Z'));
  t.equal(parseDateTime('2026-11-21T10:00:00.123456789Z', '/dateStart'), Date.parse('2026-11-21T10:00:00.123Z'));
  t.equal(parseDateTime('2026-11-21T10:00-05:30', '/dateStart'), Date.parse('2026-11-21T15:30:00.000Z'));
  const noOffset = failure(() => parseDateTime('2026-11-21T10:00:00', '/dateStart'));
  t.equal(noOffset.kind, 'bad-request');
  t.match(noOffset.detail, /dateStart has no UTC offset/);
  t.equal(noOffset.path, '/dateStart');
  t.match(failure(() => parseDateTime('21.11.2026 10:00', '/dateEnd')).detail, /dateEnd is not an ISO 8601 date-time/);
  t.match(failure(() => parseDateTime('2026-02-30T10:00:00Z', '/dateEnd')).detail, /not a valid date-time/, 'no roll-over into March');
  t.match(failure(() => parseDateTime('2026-11-21T24:00:00Z', '/dateEnd')).detail, /not a valid date-time/);
});

t.test('full body: each missing or invalid part has its own message', async (t) => {
  const ok = { dateStart: '2026-11-21T10:00:00Z', dateEnd: '2026-11-21T11:00:00Z', configItems: [{ id: 1, scope: 'Ci' as const }] };
  t.same(readFullBody(ok).scope, [{ ciId: 1, scope: 'Ci', depth: -1 }], 'depth defaults to -1');
  t.equal(readFullBody(ok).title, null);
  t.same(readFullBody(ok).labels, {});
  const cases: Array<[string, object, RegExp, string]> = [
    ['start missing', { ...ok, dateStart: null }, /start time \(dateStart\) is missing/, '/dateStart'],
    ['end missing', { ...ok, dateEnd: undefined }, /end time \(dateEnd\) is missing/, '/dateEnd'],
    ['CI list missing', { ...ok, configItems: null }, /CI list \(configItems\) is missing/, '/configItems'],
    ['CI list empty', { ...ok, configItems: [] }, /configItems\) is empty/, '/configItems'],
    ['end not after start', { ...ok, dateEnd: ok.dateStart }, /must be after its start/, '/dateEnd'],
    ['CI id missing', { ...ok, configItems: [{ scope: 'Ci' }] }, /CI id is missing in configItems\[0\]/, '/configItems/0/id'],
    [
      'invalid CI id',
      {
        ...ok,
        configItems: [
          { id: 1, scope: 'Ci' },
          { id: -3, scope: 'Ci' },
        ],
      },
      /Invalid CI id in configItems\[1\]: -3/,
      '/configItems/1/id',
    ],
    ['fractional CI id', { ...ok, configItems: [{ id: 1.5, scope: 'Ci' }] }, /Invalid CI id/, '/configItems/0/id'],
    ['depth below -1', { ...ok, configItems: [{ id: 1, scope: 'CiAndChildren', depth: -2 }] }, /Invalid graph depth in configItems\[0\]: -2/, '/configItems/0/depth'],
    ['fractional depth', { ...ok, configItems: [{ id: 1, scope: 'CiAndChildren', depth: 0.5 }] }, /Invalid graph depth/, '/configItems/0/depth'],
    [
      'CI twice',
      {
        ...ok,
        configItems: [
          { id: 1, scope: 'Ci' },
          { id: 1, scope: 'CiAndChildren' },
        ],
      },
      /CI 1 is listed twice/,
      '/configItems/1/id',
    ],
  ];
  for (const [name, body, detail, path] of cases) {
    const f = failure(() => readFullBody(body as never));
    t.equal(f.kind, 'bad-request', name);
    t.match(f.detail, detail, name);
    t.equal(f.path, path, name);
  }
});

t.test('patch body: absent and null fields stay unset', async (t) => {
  t.same(readPatchBody({ title: null, dateStart: null, configItems: null, labels: null }), { cancel: false });
  t.same(readPatchBody({ title: 'x', cancel: true }), { title: 'x', cancel: true });
  t.match(failure(() => readPatchBody({ dateStart: '2026-11-21T10:00:00Z', dateEnd: '2026-11-21T09:00:00Z' })).detail, /must be after its start/);
});

t.test('list query: defaults, and a 400 naming each bad parameter', async (t) => {
  t.same(parseListQuery({}), { sortCol: 'id', sortDir: 'asc', page: 1, perPage: 1000, search: undefined });
  t.same(parseListQuery({ sortCol: 'state', sortDir: 'DESC', page: '3', perPage: '-1', search: '  db ' }), {
    sortCol: 'state',
    sortDir: 'desc',
    page: 3,
    perPage: -1,
    search: 'db',
  });
  for (const [name, value] of [
    ['sortCol', 'configItems'],
    ['sortCol', 'labels'],
    ['sortDir', 'up'],
    ['page', '0'],
    ['page', 'x'],
    ['page', '1.5'],
    ['perPage', '0'],
    ['perPage', '-2'],
    ['perPage', ''],
  ] as const) {
    const f = failure(() => parseListQuery({ [name]: value }));
    t.equal(f.kind, 'bad-request', `${name}=${value}`);
    t.equal(f.path, `/${name}`, `${name}=${value}`);
  }
});

t.test('search: ids exactly, title and labels as case-insensitive substrings', async (t) => {
  const mode = { ...modeRecord(12, T0, T0 + 1, [{ ciId: 345 }]), title: 'Database upgrade', labels: { Team: 'Storage-Ops' } };
  for (const hit of ['12', '345', 'dataBASE', 'upgr', 'team', 'storage-ops']) t.ok(searchMatcher(hit)(mode), hit);
  for (const miss of ['1', '34', '3456', 'network']) t.notOk(searchMatcher(miss)(mode), miss);
});
