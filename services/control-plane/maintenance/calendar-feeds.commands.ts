/** Creating and revoking calendar feeds (issue #17): validate on the model, return changes. */
import { randomBytes } from 'node:crypto';
import { fail } from '../../../schemas/errors.js';
import { findUser } from '../identity/identity.commands.js';
import { sha256Hex } from '../identity/tokens.js';
import type { PlatformCommand } from '../model.js';
import type { CalendarFeedRecord } from './calendar-feeds.slice.js';
import { parseListQuery } from './maintenance-query.js';

/** Distinct from API tokens (`ops_`), so a person or a secret scanner can tell which leaked. */
const PREFIX = 'opscal_';

/**
 * Every process holds every feed in memory, so one user must not be able to create them without
 * end (issue #15); revoked feeds do not count, so revoking one always makes room.
 */
export const MAX_ACTIVE_FEEDS_PER_USER = 50;

export function newFeedSecret(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

export interface FeedInput {
  name?: string | undefined;
  search?: string | undefined;
}

export function createFeed(userId: number, input: FeedInput, secret: string, now: string): PlatformCommand<CalendarFeedRecord> {
  return (model) => {
    findUser(model, userId);
    const active = model.slices.calendarFeeds.ofUser(userId).filter((feed) => feed.revokedAt === null).length;
    if (active >= MAX_ACTIVE_FEEDS_PER_USER) throw fail('calendar_feed.too_many', { limit: MAX_ACTIVE_FEEDS_PER_USER });
    // The list's own reading of `search`, so the feed shows what the list would.
    const search = parseListQuery(input.search === undefined ? {} : { search: input.search }).search ?? null;
    const { id, change } = model.sequences.next('feed');
    const feed: CalendarFeedRecord = { id, userId, sha256: sha256Hex(secret), name: input.name?.trim() || 'Maintenance', search, createdAt: now, revokedAt: null };
    return { changes: [change, { key: `feed:${id}`, value: feed }], result: (m) => m.slices.calendarFeeds.feeds.get(id)! };
  };
}

/**
 * Revokes a feed of `actor`, or of anyone when the actor is a platform admin. Someone else's feed
 * answers as absent, so feed ids reveal nothing. Revoking twice keeps the first time.
 */
export function revokeFeed(feedId: number, actor: { userId: number; admin: boolean }, now: string): PlatformCommand<void> {
  return (model) => {
    const feed = model.slices.calendarFeeds.feeds.get(feedId);
    if (!feed || (feed.userId !== actor.userId && !actor.admin)) throw fail('calendar_feed.not_found', { id: feedId });
    if (feed.revokedAt !== null) return { changes: [], result: () => undefined };
    return { changes: [{ key: `feed:${feedId}`, value: { ...feed, revokedAt: now } }], result: () => undefined };
  };
}
