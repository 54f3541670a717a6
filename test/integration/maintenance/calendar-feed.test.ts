/**
 * Issue #17, calendar feeds: a feed token (not an API token) in a subscription URL serves the
 * maintenance modes its owner may see at each fetch, narrowed by the feed's `search`, as
 * iCalendar read back here by a real parser (ical.js). Revoking the feed, the owner's right, the
 * owner's grants and the owner's state all take effect on the next fetch.
 */
import ICAL from 'ical.js';
import t, { type Test } from 'tap';
import type { Answer } from '../../support/http.js';
import { ADMIN_API, CIS, HOUR, isProblem, Kit, MAINT, type User } from './maintenance-kit.js';

const FEEDS = `${MAINT}/calendar-feeds`;
const CALENDAR = `${MAINT}/calendar.ics`;

const kit = new Kit();
let wgA: number;
let wgB: number;
let a1: number;
let b1: number;
let c1: number;
let reader: User;
let other: User;
let noRole: User;
let mA: number;
let mB: number;
let mC: number;
let mShared: number;
let untitled: number;

t.before(async () => {
  await kit.start();
  wgA = await kit.workGroup();
  wgB = await kit.workGroup();
  a1 = await kit.ci(wgA);
  b1 = await kit.ci(wgB);
  c1 = await kit.ci(wgB);
  await kit.grant(c1, wgA, 'ConfigItem', ['base-system.rsm.basic-read']);
  reader = await kit.user(['maintenance-reader'], [wgA]);
  other = await kit.user(['maintenance-reader'], [wgB]);
  noRole = await kit.user([], [wgA]);
  mA = (await kit.mode({ ...window(1, a1), title: 'Router upgrade', labels: { team: 'network' } })).id;
  mB = (await kit.mode({ ...window(2, b1), title: 'Switch firmware' })).id;
  mC = (await kit.mode({ ...window(3, c1), title: 'Firewall rules' })).id;
  mShared = (await kit.mode({ ...window(4, a1, b1), title: 'Core maintenance' })).id;
  untitled = (await kit.mode(window(5, a1))).id;
});
t.teardown(() => kit.stop());

function window(hoursAhead: number, ...ids: number[]) {
  return { dateStart: kit.at(hoursAhead * HOUR), dateEnd: kit.at((hoursAhead + 2) * HOUR), configItems: ids.map((id) => ({ id, scope: 'Ci' })) };
}

async function newFeed(token: string, body: Record<string, unknown> = {}): Promise<{ id: number; token: string; url: string }> {
  return kit.must(await kit.api('POST', FEEDS, { json: body, token }), 201, 'calendar feed');
}

/** The calendar as a subscribing client fetches it: the URL, no Authorization header. */
const fetchCalendar = (feedToken: string): Promise<Answer> => kit.api('GET', `${CALENDAR}?feedToken=${encodeURIComponent(feedToken)}`, { token: null });

interface Ev {
  uid: string;
  modeId: number;
  summary: string;
  description: string;
  status: string | null;
  start: ICAL.Time;
  end: ICAL.Time;
  component: ICAL.Component;
}

/** Parses the answer with ical.js; fails the test unless it is a 200 text/calendar VCALENDAR. */
function calendarOf(t: Test, answer: Answer): { calendar: ICAL.Component; events: Ev[] } {
  t.equal(answer.status, 200, `calendar answered: ${answer.status === 200 ? '' : answer.text}`);
  t.equal(answer.headers.get('content-type'), 'text/calendar; charset=utf-8');
  const calendar = new ICAL.Component(ICAL.parse(answer.text) as unknown[]);
  t.equal(calendar.name, 'vcalendar');
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const events = calendar.getAllSubcomponents('vevent').map((component) => {
    const uid = String(component.getFirstPropertyValue('uid'));
    const status = component.getFirstPropertyValue('status');
    return {
      uid,
      modeId: Number(/^maintenance-(\d+)@/.exec(uid)?.[1]),
      summary: String(component.getFirstPropertyValue('summary')),
      description: String(component.getFirstPropertyValue('description') ?? ''),
      status: status === null ? null : String(status),
      start: component.getFirstPropertyValue('dtstart') as ICAL.Time,
      end: component.getFirstPropertyValue('dtend') as ICAL.Time,
      component,
    };
  });
  return { calendar, events };
}

const idsOf = (events: Ev[]): number[] => events.map((e) => e.modeId).sort((a, b) => a - b);
const utc = (time: ICAL.Time): string => time.toJSDate().toISOString();

/** Ids of the modes the list (spec 4.2 #1) shows `token` for `query`. */
async function listed(token: string, query = ''): Promise<number[]> {
  const modes = await kit.must(await kit.list(`?perPage=-1${query}`, token), 200, 'list');
  return modes.map((m: { id: number }) => m.id).sort((a: number, b: number) => a - b);
}

t.test('creating a feed shows its token and URL once; listing shows the feeds without them', async (t) => {
  const created = await kit.api('POST', FEEDS, { json: { name: 'On call', search: '  router ' }, token: reader.token });
  t.equal(created.status, 201);
  const feed = created.body;
  t.match(feed.token, /^opscal_[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url, with a prefix of its own');
  t.equal(feed.url, `${CALENDAR}?feedToken=${feed.token}`, 'a relative URL carrying the token');
  const { token: _token, url: _url, ...rest } = feed;
  t.same(rest, { id: feed.id, name: 'On call', search: 'router', createdAt: kit.at(), revokedAt: null }, 'the search as the list reads it: trimmed');
  const plain = await newFeed(reader.token);
  const list = await kit.must(await kit.api('GET', FEEDS, { token: reader.token }), 200, 'feeds');
  t.same(list, [
    { id: feed.id, name: 'On call', search: 'router', createdAt: kit.at(), revokedAt: null },
    { id: plain.id, name: 'Maintenance', search: null, createdAt: kit.at(), revokedAt: null },
  ]);
  t.notMatch(JSON.stringify(list), feed.token, 'no token in the list');
  t.notOk(
    (await kit.api('GET', FEEDS, { token: other.token })).body.some((f: { id: number }) => f.id === feed.id),
    "another user's list does not show it",
  );
});

t.test('creating a feed needs a bearer token and the maintenance read right', async (t) => {
  isProblem(t, await kit.api('POST', FEEDS, { json: {}, token: null }), 401, 'unauthorized');
  isProblem(t, await kit.api('POST', FEEDS, { json: {}, token: noRole.token }), 403, 'forbidden', /base-system\.rsm-maintenance\.read/);
  isProblem(t, await kit.api('POST', FEEDS, { json: { name: '' }, token: reader.token }), 400, 'validation', undefined, '/name');
  isProblem(t, await kit.api('POST', FEEDS, { json: { colour: 'red' }, token: reader.token }), 400, 'validation');
  isProblem(t, await kit.api('GET', FEEDS, { token: null }), 401, 'unauthorized');
});

t.test('the calendar parses, with one VEVENT per mode the owner may see and the modes’ UTC times', async (t) => {
  const feed = await newFeed(reader.token);
  const answer = await fetchCalendar(feed.token);
  const { events } = calendarOf(t, answer);
  t.equal(answer.headers.get('cache-control'), 'private, no-store');
  t.same(idsOf(events), await listed(reader.token), 'the modes the list shows the owner');
  t.ok([mA, mC, mShared, untitled].every((id) => idsOf(events).includes(id)) && !idsOf(events).includes(mB), 'own CI, basic-read CI and shared mode in; the other team’s out');
  t.equal(new Set(events.map((e) => e.uid)).size, events.length, 'one event per mode');
  for (const id of [mA, mC, mShared, untitled]) {
    const mode = (await kit.get(id, reader.token)).body;
    const event = events.find((e) => e.modeId === id)!;
    t.equal(event.start.zone?.tzid, 'UTC', `mode ${id}: DTSTART in UTC`);
    t.equal(utc(event.start), mode.dateStart, `mode ${id}: DTSTART`);
    t.equal(utc(event.end), mode.dateEnd, `mode ${id}: DTEND`);
    t.equal(event.summary, mode.title ?? `Maintenance ${id}`, `mode ${id}: SUMMARY`);
    t.not(event.status, 'CANCELLED');
  }
  const router = events.find((e) => e.modeId === mA)!;
  t.match(router.description, new RegExp(`CI ${a1}\\b`), 'the description names the CIs');
  t.match(router.description, /team: network/, 'and the labels');
  t.equal((await kit.api('HEAD', `${CALENDAR}?feedToken=${feed.token}`, { token: null })).status, 200, 'HEAD, as some clients probe');
});

t.test('another user’s feed has only the modes that user may see', async (t) => {
  const { events } = calendarOf(t, await fetchCalendar((await newFeed(other.token)).token));
  t.same(idsOf(events), await listed(other.token));
  t.ok(
    [mB, mC, mShared].every((id) => idsOf(events).includes(id)),
    'their CIs',
  );
  t.notOk(idsOf(events).includes(mA) || idsOf(events).includes(untitled), 'not the modes on the first team’s CI only');
});

t.test('the feed’s search narrows the calendar as the list’s search does', async (t) => {
  for (const search of ['router', 'NETWORK', String(b1), String(mC), 'nothing matches this']) {
    const { events } = calendarOf(t, await fetchCalendar((await newFeed(reader.token, { search })).token));
    t.same(idsOf(events), await listed(reader.token, `&search=${encodeURIComponent(search)}`), `search ${search}`);
  }
  const byTitle = calendarOf(t, await fetchCalendar((await newFeed(reader.token, { search: 'router' })).token));
  t.same(idsOf(byTitle.events), [mA], 'title, case-insensitive');
  const byCi = calendarOf(t, await fetchCalendar((await newFeed(reader.token, { search: String(b1) })).token));
  t.same(idsOf(byCi.events), [mShared], 'a CI id: only what the owner may see');
});

t.test('a canceled mode stays in the calendar, marked cancelled', async (t) => {
  const mode = await kit.mode({ ...window(6, a1), title: 'Called off' });
  await kit.must(await kit.edit('PATCH', mode.id, { cancel: true }), 200, 'cancel');
  const { events } = calendarOf(t, await fetchCalendar((await newFeed(reader.token)).token));
  t.equal(events.find((e) => e.modeId === mode.id)?.status, 'CANCELLED');
});

t.test('a revoked feed answers 401 problem+json; it stays listed with revokedAt', async (t) => {
  const feed = await newFeed(reader.token);
  calendarOf(t, await fetchCalendar(feed.token));
  t.equal((await kit.api('DELETE', `${FEEDS}/${feed.id}`, { token: reader.token })).status, 204);
  const refused = await fetchCalendar(feed.token);
  isProblem(t, refused, 401, 'unauthorized', /revoked/);
  t.equal(refused.body.code, 'calendar_feed.revoked');
  t.equal((await kit.api('DELETE', `${FEEDS}/${feed.id}`, { token: reader.token })).status, 204, 'revoking again changes nothing');
  const listedFeed = (await kit.api('GET', FEEDS, { token: reader.token })).body.find((f: { id: number }) => f.id === feed.id);
  t.equal(listedFeed.revokedAt, kit.at());
});

t.test('a missing or unknown feed token answers 401', async (t) => {
  const missing = await kit.api('GET', CALENDAR, { token: null });
  isProblem(t, missing, 401, 'unauthorized', /feedToken/);
  t.equal(missing.body.code, 'calendar_feed.token_missing');
  const unknown = await fetchCalendar(`opscal_${'x'.repeat(43)}`);
  isProblem(t, unknown, 401, 'unauthorized');
  t.equal(unknown.body.code, 'calendar_feed.token_unknown');
});

t.test('an API token is not a feed token, and a feed token is not an API token', async (t) => {
  const asFeed = await fetchCalendar(reader.token);
  isProblem(t, asFeed, 401, 'unauthorized');
  t.equal(asFeed.body.code, 'calendar_feed.token_unknown', 'the API token in feedToken');
  const withBearer = await kit.api('GET', CALENDAR, { token: reader.token });
  t.equal(withBearer.body?.code, 'calendar_feed.token_missing', 'a bearer header does not open the calendar');
  const feed = await newFeed(reader.token);
  for (const [method, path, json] of [
    ['GET', `${MAINT}?perPage=-1`],
    ['GET', `${MAINT}/${mA}`],
    ['POST', `${MAINT}/filter`, { ids: [mA] }],
    ['GET', FEEDS],
    ['POST', FEEDS, {}],
    ['DELETE', `${FEEDS}/${feed.id}`],
    ['GET', `${CIS}/${a1}`],
    ['GET', `${ADMIN_API}/me`],
  ] as Array<[string, string, unknown?]>) {
    const answer = await kit.api(method, path, { token: feed.token, ...(json === undefined ? {} : { json }) });
    isProblem(t, answer, 401, 'unauthorized');
    t.equal(answer.body.code, 'auth.token_unknown', `${method} ${path}: the feed token as a bearer token`);
  }
  calendarOf(t, await fetchCalendar(feed.token));
});

t.test('rights are read at each fetch: a grant taken away hides its mode on the next one', async (t) => {
  const d1 = await kit.ci(wgB);
  const shared = await kit.must(
    await kit.api('POST', `${CIS}/${d1}/work-groups`, { json: { workGroupId: wgA, shareType: 'ConfigItem', grants: ['base-system.rsm.basic-read'] } }),
    200,
    'grant',
  );
  const grantId = shared.sharedToWorkGroups.find((g: { workGroupId: number }) => g.workGroupId === wgA).id;
  const mode = await kit.mode({ ...window(7, d1), title: 'Granted' });
  const feed = await newFeed(reader.token);
  t.ok(idsOf(calendarOf(t, await fetchCalendar(feed.token)).events).includes(mode.id), 'shown while the grant holds');
  t.equal((await kit.api('DELETE', `${CIS}/${d1}/work-groups/${grantId}`)).status, 204);
  const after = calendarOf(t, await fetchCalendar(feed.token)).events;
  t.notOk(idsOf(after).includes(mode.id), 'hidden once the grant is gone');
  t.same(idsOf(after), await listed(reader.token), 'as the list shows it');
});

t.test("the owner's right and state are read at each fetch", async (t) => {
  const owner = await kit.user(['maintenance-reader'], [wgA]);
  const feed = await newFeed(owner.token);
  calendarOf(t, await fetchCalendar(feed.token));
  await kit.must(await kit.api('PATCH', `${ADMIN_API}/users/${owner.id}`, { json: { roles: [] } }), 200, 'take the role');
  const forbidden = await fetchCalendar(feed.token);
  isProblem(t, forbidden, 403, 'forbidden', /base-system\.rsm-maintenance\.read/);
  t.equal((await kit.api('DELETE', `${FEEDS}/${feed.id}`, { token: owner.token })).status, 204, 'a feed can be revoked without the right');
  const second = await (async () => {
    await kit.must(await kit.api('PATCH', `${ADMIN_API}/users/${owner.id}`, { json: { roles: ['maintenance-reader'] } }), 200, 'give the role back');
    return newFeed(owner.token);
  })();
  calendarOf(t, await fetchCalendar(second.token));
  await kit.must(await kit.api('PATCH', `${ADMIN_API}/users/${owner.id}`, { json: { disabled: true } }), 200, 'disable');
  isProblem(t, await fetchCalendar(second.token), 401, 'unauthorized', /disabled or deleted/);
  await kit.must(await kit.api('PATCH', `${ADMIN_API}/users/${owner.id}`, { json: { disabled: false } }), 200, 'enable');
  calendarOf(t, await fetchCalendar(second.token));
  t.equal((await kit.api('DELETE', `${ADMIN_API}/users/${owner.id}`)).status, 204);
  isProblem(t, await fetchCalendar(second.token), 401, 'unauthorized', /disabled or deleted/);
});

t.test('only the owner or a platform admin can revoke a feed; to anyone else it does not exist', async (t) => {
  const feed = await newFeed(reader.token);
  const refused = await kit.api('DELETE', `${FEEDS}/${feed.id}`, { token: other.token });
  isProblem(t, refused, 404, 'not-found', new RegExp(`Calendar feed ${feed.id} not found`));
  t.equal(refused.body.code, 'calendar_feed.not_found');
  calendarOf(t, await fetchCalendar(feed.token));
  isProblem(t, await kit.api('DELETE', `${FEEDS}/999999`, { token: reader.token }), 404, 'not-found');
  isProblem(t, await kit.api('DELETE', `${FEEDS}/x`, { token: reader.token }), 400, 'bad-request', undefined, '/id');
  t.equal((await kit.api('DELETE', `${FEEDS}/${feed.id}`)).status, 204, 'the admin may');
  isProblem(t, await fetchCalendar(feed.token), 401, 'unauthorized', /revoked/);
});

t.test('a user holds at most 50 active feeds; revoking one makes room', async (t) => {
  const user = await kit.user(['maintenance-reader'], [wgA]);
  const feeds = [];
  for (let i = 0; i < 50; i++) feeds.push(await newFeed(user.token));
  const refused = await kit.api('POST', FEEDS, { json: {}, token: user.token });
  isProblem(t, refused, 409, 'conflict', /50 active calendar feeds/);
  t.equal(refused.body.code, 'calendar_feed.too_many');
  t.equal((await kit.api('DELETE', `${FEEDS}/${feeds[0]!.id}`, { token: user.token })).status, 204);
  t.equal((await kit.api('POST', FEEDS, { json: {}, token: user.token })).status, 201);
});

t.test('a recurring mode is one event with its rule and time zone, whose occurrences are the API’s', async (t) => {
  // Last Sunday of the month, 04:00–06:00 in Berlin, six dates of which December is skipped
  // (RFC 5545 counts it all the same): the fourth (28 March 2027) is the day Berlin moves to
  // summer time.
  const mode = await kit.mode({
    title: 'Monthly patching',
    dateStart: '2026-11-29T04:00:00+01:00',
    dateEnd: '2026-11-29T06:00:00+01:00',
    recurrence: { rule: 'FREQ=MONTHLY;BYDAY=-1SU;COUNT=6', timeZone: 'Europe/Berlin', exdates: ['2026-12-27'] },
    configItems: [{ id: a1, scope: 'Ci' }],
  });
  const { calendar, events } = calendarOf(t, await fetchCalendar((await newFeed(reader.token, { search: 'Monthly patching' })).token));
  t.same(idsOf(events), [mode.id]);
  const event = events[0]!;
  t.match(String(event.component.getFirstPropertyValue('rrule')), /FREQ=MONTHLY/);
  t.equal(event.start.zone?.tzid, 'Europe/Berlin', 'DTSTART in the mode’s time zone');
  t.ok(
    calendar.getAllSubcomponents('vtimezone').some((zone) => zone.getFirstPropertyValue('tzid') === 'Europe/Berlin'),
    'with its VTIMEZONE',
  );
  const parsed = new ICAL.Event(event.component);
  const occurrences: Array<{ dateStart: string; dateEnd: string }> = [];
  const iterator = parsed.iterator();
  for (let next = iterator.next(), seen = 0; next && seen < 100; next = iterator.next(), seen++) {
    const details = parsed.getOccurrenceDetails(next);
    if (details.startDate.toJSDate().getTime() <= kit.clock) continue;
    occurrences.push({ dateStart: utc(details.startDate), dateEnd: utc(details.endDate) });
  }
  t.same(occurrences, mode.recurrence.next, 'the next occurrences as the parser expands them equal the API’s');
  t.same(
    occurrences.map((o) => o.dateStart),
    ['2026-11-29T03:00:00.000Z', '2027-01-31T03:00:00.000Z', '2027-02-28T03:00:00.000Z', '2027-03-28T02:00:00.000Z', '2027-04-25T02:00:00.000Z'],
    'worked by hand: 04:00 local, December excluded, summer time from 28 March, six dates in all',
  );
  t.same(
    occurrences.slice(-1).map((o) => o.dateEnd),
    ['2027-04-25T04:00:00.000Z'],
    '06:00 summer time',
  );
});
