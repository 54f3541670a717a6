/**
 * Issue #17: maintenance modes as a calendar a client subscribes to. A user creates a feed with
 * the bearer API; the feed's URL carries its own token, because a calendar client can send
 * nothing but a URL. That token reads this one calendar and nothing else, and the modes it shows
 * are those its owner may see at each fetch (rights, grants and the owner's state are read
 * then, not when the feed was made), narrowed by the list's `search` stored with the feed.
 */
import Type from 'typebox';
import {
  CalendarFeed,
  CalendarFeedCreate,
  CalendarFeedIssued,
  CalendarQuery,
  calendarFeedCreateExample,
  calendarFeedExample,
  calendarFeedIssuedExample,
} from '../../../schemas/calendar-feed.schema.js';
import { renderCalendar } from '../../../pipelines/maintenance/calendar-ics.js';
import type { UserRecord } from '../../control-plane/identity/identity.types.js';
import { sameDigest, sha256Hex } from '../../control-plane/identity/tokens.js';
import { calendarEventOf } from '../../control-plane/maintenance/calendar-events.js';
import { createFeed, newFeedSecret, revokeFeed } from '../../control-plane/maintenance/calendar-feeds.commands.js';
import type { CalendarFeedRecord } from '../../control-plane/maintenance/calendar-feeds.slice.js';
import { type MaintenanceRecord, modeVisible } from '../../control-plane/maintenance/maintenance.types.js';
import { listModes, parseListQuery } from '../../control-plane/maintenance/maintenance-query.js';
import type { Subject } from '../../control-plane/rights/ci-rights.js';
import type { PlatformModel } from '../../control-plane/model.js';
import { fail } from '../../../schemas/errors.js';
import { defineRoute, json, noContent, type Request, type Route } from '../../runtime/http/route.js';
import { ADMIN, type ApiDeps, isoNow } from '../api-deps.js';
import { principal, rightMissing } from '../auth.js';
import { createVisibility } from '../cmdb/visibility.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';
import { MAINTENANCE_PREFIX, MAINTENANCE_READ } from './maintenance.routes.js';

export const CALENDAR_PATH = `${MAINTENANCE_PREFIX}/calendar.ics`;
const FEEDS_PATH = `${MAINTENANCE_PREFIX}/calendar-feeds`;
const CALENDAR_TYPE = 'text/calendar; charset=utf-8';

/** Relative: only the client knows the base URL it reaches the platform by (a proxy, a port). */
export const feedUrl = (secret: string): string => `${CALENDAR_PATH}?feedToken=${encodeURIComponent(secret)}`;

const feedView = ({ id, name, search, createdAt, revokedAt }: CalendarFeedRecord) => ({ id, name, search, createdAt, revokedAt });

interface FeedCaller {
  feed: CalendarFeedRecord;
  user: UserRecord;
  subject: Subject;
}

/**
 * The feed token's own authentication, as auth.ts does for API tokens: looked up by digest,
 * confirmed in constant time. Synchronous, so a refusal is checked again after catching up with
 * the journal (read-after-write.ts): a feed made through another replica a moment ago works.
 */
function authenticateFeed(model: PlatformModel, request: Request): FeedCaller {
  const secret = request.query.get('feedToken');
  if (!secret) throw fail('calendar_feed.token_missing');
  const digest = sha256Hex(secret);
  const feed = model.slices.calendarFeeds.byTokenHash(digest);
  if (!feed || !sameDigest(feed.sha256, digest)) throw fail('calendar_feed.token_unknown');
  if (feed.revokedAt !== null) throw fail('calendar_feed.revoked', { id: feed.id });
  const identity = model.slices.identity;
  const user = identity.users.get(feed.userId);
  if (!user || user.disabled) throw fail('auth.user_disabled');
  const rights = identity.rightsOf(user);
  if (!rights.has(MAINTENANCE_READ)) throw rightMissing(identity, MAINTENANCE_READ);
  return { feed, user, subject: { workGroupIds: identity.workGroupsOf(user.id), admin: rights.has(ADMIN) } };
}

/** An example calendar rendered by the renderer itself, so the document shows what is served. */
const calendarExample = (): string => {
  const at = Date.parse('2026-11-21T10:00:00.000Z');
  return renderCalendar(
    [
      {
        uid: `maintenance-42@${at}.opsplatform`,
        title: 'Database upgrade',
        description: 'Maintenance mode 42\nCIs in scope:\n- CI 7 and its descendants (all levels)',
        start: Date.parse('2026-11-22T01:00:00.000Z'),
        end: Date.parse('2026-11-22T03:00:00.000Z'),
        updatedAt: at,
      },
    ],
    { name: 'Maintenance', now: at },
  );
};

export function calendarRoutes(deps: ApiDeps): Route[] {
  const cp = deps.controlPlane;
  const model = cp.model;
  const visibleTo = createVisibility(model);
  // Managing one's own feeds needs no right: losing the read right must not stop a revocation.
  const own = { tags: ['maintenance'], security: 'bearer' as const, authenticate: deps.auth.authenticate };

  /** What the list (spec 4.2 #1) would show the feed's owner now for the feed's `search`, all pages. */
  const modesOf = (caller: FeedCaller, now: number): MaintenanceRecord[] => {
    const visible = visibleTo(caller.subject);
    const query = parseListQuery({ perPage: '-1', ...(caller.feed.search === null ? {} : { search: caller.feed.search }) });
    const seen: MaintenanceRecord[] = [];
    for (const mode of model.slices.maintenance.modes.values()) if (modeVisible(mode, visible)) seen.push(mode);
    return listModes(seen, query, now);
  };

  return [
    defineRoute({
      ...own,
      method: 'POST',
      path: FEEDS_PATH,
      name: 'maintenance.createCalendarFeed',
      summary: 'Create a calendar feed of the maintenance modes the caller may see; its token and URL are in this answer only',
      authenticate: deps.auth.requireRight(MAINTENANCE_READ),
      schema: {
        body: CalendarFeedCreate,
        bodyExample: calendarFeedCreateExample,
        responses: { 201: { description: 'Created', schema: CalendarFeedIssued, example: calendarFeedIssuedExample }, ...problems(400, 401, 403, 409, 415) },
      },
      handler: async (req) => {
        const { body } = req;
        const secret = newFeedSecret();
        const feed = await cp.execute(createFeed(principal(req).user.id, { name: body.name, search: body.search }, secret, isoNow(deps)));
        return json(201, { ...feedView(feed), token: secret, url: feedUrl(secret) });
      },
    }),
    defineRoute({
      ...own,
      method: 'GET',
      path: FEEDS_PATH,
      name: 'maintenance.listCalendarFeeds',
      summary: "The caller's calendar feeds, revoked ones included (never their tokens)",
      schema: { responses: { 200: { description: 'Feeds', schema: Type.Array(CalendarFeed), example: [calendarFeedExample] }, ...problems(401) } },
      handler: (req) => json(200, model.slices.calendarFeeds.ofUser(principal(req).user.id).map(feedView)),
    }),
    defineRoute({
      ...own,
      method: 'DELETE',
      path: `${FEEDS_PATH}/:id`,
      name: 'maintenance.revokeCalendarFeed',
      summary: 'Revoke a calendar feed: its URL answers 401 from now on. Platform admins may revoke anyone’s',
      schema: { responses: { 204: { description: 'Revoked (also when it already was)' }, ...problems(400, 401, 404) } },
      handler: async (req) => {
        const p = principal(req);
        const id = parseId(req.params['id'], 'id', 'calendar feed id');
        await cp.execute(revokeFeed(id, { userId: p.user.id, admin: p.subject.admin }, isoNow(deps)));
        return noContent();
      },
    }),
    defineRoute({
      method: 'GET',
      path: CALENDAR_PATH,
      name: 'maintenance.calendar',
      summary: 'The maintenance calendar of a feed (iCalendar, RFC 5545): one event per mode its owner may see now, recurring ones with their rule and time zone',
      tags: ['maintenance'],
      security: 'feedToken',
      authenticate: (req) => authenticateFeed(model, req),
      schema: {
        query: CalendarQuery,
        responses: {
          200: { description: 'The calendar', contentType: 'text/calendar', schema: Type.String({ description: 'An iCalendar object (RFC 5545)' }), example: calendarExample() },
          401: { description: 'The feed token is missing, unknown or revoked, or its owner is disabled or deleted' },
          403: { description: 'The feed’s owner no longer holds base-system.rsm-maintenance.read' },
        },
      },
      handler: (req) => {
        const caller = req.auth;
        const now = deps.now();
        const body = renderCalendar(modesOf(caller, now).map(calendarEventOf), { name: caller.feed.name, now });
        // Rights are read at each fetch, so no copy may be kept and served to anyone later.
        return { status: 200, headers: { 'content-type': CALENDAR_TYPE, 'cache-control': 'private, no-store' }, body };
      },
    }),
  ];
}
