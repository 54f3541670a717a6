/**
 * Calendar feeds (`feed:<id>`, issue #17): a read-only credential for one user's maintenance
 * calendar, for a calendar client's subscription URL. Its own kind, not an identity token, so a
 * feed token is refused as a bearer token and an API token is refused as a feed token by
 * construction: each is looked up only in its own index.
 */
import type { Slice } from '../model.js';

export interface CalendarFeedRecord {
  id: number;
  userId: number;
  /** Hex SHA-256 of the secret; the secret itself is shown once and never stored. */
  sha256: string;
  name: string;
  /** The list's `search` (spec 4.2 #1), normalised as the list normalises it; null: every mode. */
  search: string | null;
  createdAt: string;
  /** A revoked feed stays listed, so its owner can see that it was revoked and when. */
  revokedAt: string | null;
}

export class CalendarFeedsSlice implements Slice {
  readonly kinds = ['feed'];
  readonly feeds = new Map<number, CalendarFeedRecord>();
  private readonly byHash = new Map<string, CalendarFeedRecord>();

  apply(key: string, kind: string, value: unknown): void {
    const id = Number(key.slice(kind.length + 1));
    const before = this.feeds.get(id);
    if (before) this.byHash.delete(before.sha256);
    if (value === null) this.feeds.delete(id);
    else {
      const feed = value as CalendarFeedRecord;
      this.feeds.set(id, feed);
      this.byHash.set(feed.sha256, feed);
    }
  }

  byTokenHash(sha256: string): CalendarFeedRecord | undefined {
    return this.byHash.get(sha256);
  }

  /** A user's feeds, revoked ones included, oldest first. */
  ofUser(userId: number): CalendarFeedRecord[] {
    return [...this.feeds.values()].filter((feed) => feed.userId === userId).sort((a, b) => a.id - b.id);
  }
}

declare module '../model.js' {
  interface PlatformSlices {
    calendarFeeds: CalendarFeedsSlice;
  }
}
