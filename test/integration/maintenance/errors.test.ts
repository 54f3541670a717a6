/**
 * Spec 7.2 for #2, #4, #5 and #6: one test per condition and per error code, against the HTTP
 * API with the clock injected. Rights (403) and lists (#1, #3) have their own files.
 */
import t from 'tap';
import { HOUR, isProblem, Kit, MAINT, MIN, UNKNOWN_TOKEN } from './maintenance-kit.js';

const kit = new Kit();
let wg: number;
let ci: number;
let ci2: number;
t.before(async () => {
  await kit.start();
  wg = await kit.workGroup();
  ci = await kit.ci(wg);
  ci2 = await kit.ci(wg);
});
t.teardown(() => kit.stop());

const valid = () => ({ dateStart: kit.at(HOUR), dateEnd: kit.at(2 * HOUR), configItems: [{ id: ci, scope: 'Ci' }] });
const scheduled = () => kit.mode(valid());

/** The body-level conditions shared by #4 and #5 (and, but for the missing fields, #6). */
const bodyCases = (): Array<[string, Record<string, unknown>, RegExp, string?]> => [
  ['end not after start', { ...valid(), dateEnd: valid().dateStart }, /must be after its start/, '/dateEnd'],
  ['CI id missing', { ...valid(), configItems: [{ scope: 'Ci' }] }, /CI id is missing in configItems\[0\]/, '/configItems/0/id'],
  ['invalid CI id', { ...valid(), configItems: [{ id: 0, scope: 'Ci' }] }, /Invalid CI id in configItems\[0\]: 0/, '/configItems/0/id'],
  ['invalid graph depth', { ...valid(), configItems: [{ id: ci, scope: 'CiAndChildren', depth: -5 }] }, /Invalid graph depth in configItems\[0\]: -5/, '/configItems/0/depth'],
  ['non-integer depth', { ...valid(), configItems: [{ id: ci, scope: 'CiAndChildren', depth: 1.5 }] }, /Invalid graph depth/, '/configItems/0/depth'],
  ['date without offset', { ...valid(), dateStart: kit.at(HOUR).slice(0, 19) }, /dateStart has no UTC offset/, '/dateStart'],
  ['not a date', { ...valid(), dateEnd: 'tomorrow' }, /dateEnd is not an ISO 8601 date-time/, '/dateEnd'],
];
const missingCases = (): Array<[string, Record<string, unknown>, RegExp, string]> => [
  ['start time missing', { ...valid(), dateStart: undefined }, /start time \(dateStart\) is missing/, '/dateStart'],
  ['end time missing', { ...valid(), dateEnd: null }, /end time \(dateEnd\) is missing/, '/dateEnd'],
  ['CI list missing', { ...valid(), configItems: undefined }, /CI list \(configItems\) is missing/, '/configItems'],
];

t.test('#1 and #3: 401 without a valid token', async (t) => {
  for (const token of [null, UNKNOWN_TOKEN]) {
    isProblem(t, await kit.api('GET', MAINT, { token }), 401, 'unauthorized');
    isProblem(t, await kit.api('POST', `${MAINT}/filter`, { json: { ids: [1] }, token }), 401, 'unauthorized');
  }
});

t.test('#2: 404 for an unknown mode, 400 for an invalid id, 401 without a token', async (t) => {
  isProblem(t, await kit.get(999_999), 404, 'not-found', /Maintenance mode 999999 not found/);
  isProblem(t, await kit.get('abc'), 400, 'bad-request', /Invalid maintenance mode id/, '/id');
  isProblem(t, await kit.api('GET', `${MAINT}/1`, { token: null }), 401, 'unauthorized');
  isProblem(t, await kit.api('GET', `${MAINT}/1`, { token: UNKNOWN_TOKEN }), 401, 'unauthorized');
});

t.test('#4 400: empty body, malformed JSON, invalid model', async (t) => {
  isProblem(t, await kit.api('POST', MAINT, { body: '', headers: { 'content-type': 'application/json' } }), 400, 'empty-body');
  isProblem(t, await kit.api('POST', MAINT, { body: '{"title":', headers: { 'content-type': 'application/json' } }), 400, 'invalid-json');
  isProblem(t, await kit.create({ ...valid(), title: 42 }), 400, 'validation', undefined, '/title');
  isProblem(t, await kit.create({ ...valid(), labels: { a: 1 } }), 400, 'validation', undefined, '/labels/a');
  isProblem(t, await kit.create({ ...valid(), configItems: [{ id: ci, scope: 'Everything' }] }), 400, 'validation', undefined, '/configItems/0/scope');
  isProblem(t, await kit.create([valid()]), 400, 'validation');
});

t.test('#4 400: each missing field and each invalid value has its own message', async (t) => {
  for (const [name, body, detail, path] of [...missingCases(), ...bodyCases()]) {
    t.test(name, async (t) => isProblem(t, await kit.create(body), 400, 'bad-request', detail, path));
  }
});

t.test('#4 400: the CI list is empty', async (t) => {
  isProblem(t, await kit.create({ ...valid(), configItems: [] }), 400, 'bad-request', /configItems\) is empty/, '/configItems');
});

t.test('#4 400: the end must be later than the current time', async (t) => {
  isProblem(t, await kit.create({ ...valid(), dateStart: kit.at(-2 * HOUR), dateEnd: kit.at() }), 400, 'bad-request', /later than the current time/, '/dateEnd');
});

t.test('#4 batchValidate=false drops unknown CIs, and refuses when none remain', async (t) => {
  const mode = await kit.mode({
    ...valid(),
    configItems: [
      { id: 777_777, scope: 'Ci' },
      { id: ci, scope: 'Ci' },
    ],
  });
  t.same(
    mode.configItems.map((e: any) => e.id),
    [ci],
  );
  isProblem(t, await kit.create({ ...valid(), configItems: [{ id: 777_777, scope: 'Ci' }] }), 400, 'bad-request', /None of the CIs/);
  isProblem(t, await kit.create({ ...valid(), configItems: [{ id: 777_777, scope: 'Ci' }] }, { query: '?batchValidate=false' }), 400, 'bad-request', /None of the CIs/);
});

t.test('#4 batchValidate=true refuses the mode and lists every CI that fails', async (t) => {
  const before = (await kit.list('?perPage=-1')).body.length;
  const answer = await kit.create(
    {
      ...valid(),
      configItems: [
        { id: ci, scope: 'Ci' },
        { id: 777_777, scope: 'Ci' },
        { id: 888_888, scope: 'Ci' },
      ],
    },
    { query: '?batchValidate=true' },
  );
  isProblem(t, answer, 400, 'bad-request', /CIs not found or not accessible: 777777, 888888/, '/configItems/2/id');
  t.equal((await kit.list('?perPage=-1')).body.length, before, 'no mode was created');
  const ok = await kit.create(valid(), { query: '?batchValidate=true' });
  t.equal(ok.status, 201);
  isProblem(t, await kit.create(valid(), { query: '?batchValidate=yes' }), 400, 'bad-request', /batchValidate/);
});

t.test('#4 401 without a valid token, 415 when the body is not JSON', async (t) => {
  isProblem(t, await kit.api('POST', MAINT, { json: valid(), token: null }), 401, 'unauthorized');
  isProblem(t, await kit.api('POST', MAINT, { json: valid(), token: UNKNOWN_TOKEN }), 401, 'unauthorized');
  isProblem(t, await kit.api('POST', MAINT, { body: JSON.stringify(valid()), headers: { 'content-type': 'text/plain' } }), 415, 'unsupported-media-type');
});

for (const method of ['PUT', 'PATCH'] as const) {
  t.test(`${method} 400: empty body, invalid model, invalid mode id`, async (t) => {
    const mode = await scheduled();
    isProblem(t, await kit.api(method, `${MAINT}/${mode.id}`, { body: ' ', headers: { 'content-type': 'application/json' } }), 400, 'empty-body');
    isProblem(t, await kit.edit(method, mode.id, { ...valid(), cancel: 'yes' }), 400, 'validation', undefined, '/cancel');
    isProblem(t, await kit.edit(method, 'x1', valid()), 400, 'bad-request', /Invalid maintenance mode id/, '/id');
    isProblem(t, await kit.edit(method, -4, valid()), 400, 'bad-request', /Invalid maintenance mode id/, '/id');
  });

  t.test(`${method} 400: each invalid value has its own message`, async (t) => {
    const mode = await scheduled();
    for (const [name, body, detail, path] of bodyCases()) {
      t.test(name, async (t) => isProblem(t, await kit.edit(method, mode.id, body), 400, 'bad-request', detail, path));
    }
  });

  t.test(`${method} 400: CIs not found or not accessible`, async (t) => {
    const mode = await scheduled();
    const body = { ...valid(), configItems: [{ id: 777_777, scope: 'Ci' }] };
    isProblem(t, await kit.edit(method, mode.id, body), 400, 'bad-request', /None of the CIs/);
    isProblem(
      t,
      await kit.edit(method, mode.id, { ...body, configItems: [...body.configItems, { id: ci2, scope: 'Ci' }] }, { query: '?batchValidate=true' }),
      400,
      'bad-request',
      /not found or not accessible: 777777/,
    );
  });

  t.test(`${method} 400: an ended mode cannot be completed, nor changed`, async (t) => {
    const mode = await kit.mode({ ...valid(), dateStart: kit.at(-MIN), dateEnd: kit.at(MIN) });
    kit.clock += MIN;
    isProblem(t, await kit.edit(method, mode.id, { ...valid(), cancel: true }), 400, 'bad-request', /has already ended, so it cannot be completed/);
    isProblem(t, await kit.edit(method, mode.id, valid()), 400, 'bad-request', /has already ended, so it cannot be changed/);
    isProblem(t, await kit.edit(method, mode.id, { ...valid(), dateStart: mode.dateStart, title: 'late' }), 400, 'bad-request', /has already ended, so it cannot be changed/);
  });

  t.test(`${method} 400: a canceled mode cannot be canceled again, nor changed`, async (t) => {
    const mode = await scheduled();
    t.equal((await kit.edit(method, mode.id, { ...valid(), cancel: true })).body.state, 'Canceled');
    isProblem(t, await kit.edit(method, mode.id, { ...valid(), cancel: true }), 400, 'bad-request', /already canceled, so it cannot be canceled again/);
    isProblem(t, await kit.edit(method, mode.id, valid()), 400, 'bad-request', /was canceled, so it cannot be changed/);
  });

  t.test(`${method} 400: a started mode's start time cannot be changed`, async (t) => {
    const mode = await kit.mode({ ...valid(), dateStart: kit.at(MIN) });
    kit.clock += 2 * MIN;
    const answer = await kit.edit(method, mode.id, { ...valid(), dateStart: kit.at(-HOUR), dateEnd: mode.dateEnd });
    isProblem(t, answer, 400, 'bad-request', /has already started, so its start time cannot be changed/, '/dateStart');
  });

  t.test(`${method} 400: the end must stay after the start and after now`, async (t) => {
    const mode = await kit.mode({ ...valid(), dateStart: kit.at(MIN) });
    kit.clock += 2 * MIN;
    isProblem(t, await kit.edit(method, mode.id, { ...valid(), dateStart: mode.dateStart, dateEnd: kit.at(-1) }), 400, 'bad-request', /later than the current time/, '/dateEnd');
    isProblem(t, await kit.edit(method, mode.id, { ...valid(), dateStart: mode.dateStart, dateEnd: mode.dateStart }), 400, 'bad-request', /must be after its start/, '/dateEnd');
  });

  t.test(`${method} 404, 401, 415`, async (t) => {
    isProblem(t, await kit.edit(method, 999_999, valid()), 404, 'not-found', /Maintenance mode 999999 not found/);
    isProblem(t, await kit.api(method, `${MAINT}/1`, { json: valid(), token: null }), 401, 'unauthorized');
    isProblem(t, await kit.api(method, `${MAINT}/1`, { json: valid(), token: UNKNOWN_TOKEN }), 401, 'unauthorized');
    isProblem(t, await kit.api(method, `${MAINT}/1`, { body: 'title=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported-media-type');
  });
}

t.test('PUT 400: start, end and CI list are required', async (t) => {
  const mode = await scheduled();
  for (const [name, body, detail, path] of missingCases()) {
    t.test(name, async (t) => isProblem(t, await kit.edit('PUT', mode.id, body), 400, 'bad-request', detail, path));
  }
});

t.test('PATCH: start, end and CI list may be left out; the end is checked against the stored start', async (t) => {
  const mode = await scheduled();
  t.equal((await kit.edit('PATCH', mode.id, { title: 'only the title' })).status, 200);
  isProblem(t, await kit.edit('PATCH', mode.id, { dateEnd: mode.dateStart }), 400, 'bad-request', /must be after its start/, '/dateEnd');
  isProblem(t, await kit.edit('PATCH', mode.id, { dateStart: mode.dateEnd }), 400, 'bad-request', /must be after its start/, '/dateEnd');
  isProblem(t, await kit.edit('PATCH', mode.id, { configItems: [] }), 400, 'bad-request', /configItems\) is empty/);
});

t.test('#4 batchValidate follows the one rule of boolean query parameters: 1 is true, yes is a 400', async (t) => {
  const refused = await kit.create(
    {
      ...valid(),
      configItems: [
        { id: ci, scope: 'Ci' },
        { id: 777_777, scope: 'Ci' },
      ],
    },
    { query: '?batchValidate=1' },
  );
  isProblem(t, refused, 400, 'bad-request', /not found or not accessible: 777777/);
  isProblem(t, await kit.create(valid(), { query: '?batchValidate=yes' }), 400, 'bad-request', /must be true or false \(or 1 or 0\)/);
});
