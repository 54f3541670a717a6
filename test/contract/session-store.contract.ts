/**
 * The session-store port's contract (services/runtime/adapters/sessions/session-store.port.ts),
 * one suite that both adapters pass. `open` gives a fresh, empty store on the clock it is given.
 */
import type { Test } from 'tap';
import { SESSION_KEPT_MS, type SessionStore, type StoredSession } from '../../services/runtime/adapters/sessions/session-store.port.js';

export interface SessionStoreFixture {
  store: SessionStore;
  /** A second handle on the same store (another connection, another LMDB handle). */
  openAnother: () => Promise<SessionStore>;
  cleanup?: () => Promise<void>;
}

export type OpenSessionStore = (now: () => number) => Promise<SessionStoreFixture>;

const T0 = Date.parse('2026-11-21T10:00:00Z');
const MINUTE = 60_000;

const session = (over: Partial<StoredSession> = {}): StoredSession => ({
  userId: 7,
  tokenId: 12,
  csrfToken: 'csrf-Vq3n1xXo0s7eQm2lJc9tPz4bRk6wYh8aFd5gUi1LvE0',
  createdAt: T0,
  lastSeenAt: T0,
  idleExpiresAt: T0 + 30 * MINUTE,
  expiresAt: T0 + 12 * 60 * MINUTE,
  ...over,
});

/** Ids as the service makes them: hex SHA-256 digests. */
const id = (n: number): string => n.toString(16).padStart(64, 'a');

export function sessionStoreContract(t: Test, name: string, open: OpenSessionStore): void {
  const withStore = (title: string, body: (t: Test, f: SessionStoreFixture & { clock: { now: number }; track: (s: SessionStore) => SessionStore }) => Promise<void>): void => {
    t.test(`${name}: ${title}`, async (t) => {
      const clock = { now: T0 };
      const fixture = await open(() => clock.now);
      const handles: SessionStore[] = [fixture.store];
      const track = (s: SessionStore): SessionStore => {
        handles.push(s);
        return s;
      };
      try {
        await body(t, { ...fixture, clock, track });
      } finally {
        await Promise.allSettled(handles.map((s) => s.close()));
        await fixture.cleanup?.();
      }
    });
  };

  withStore('a created session is read back as stored; an unknown id is absent', async (t, { store }) => {
    t.equal(store.kind, name);
    await store.ping();
    t.equal(await store.get(id(1)), undefined, 'an empty store has none');
    await store.create(id(1), session());
    await store.create(id(2), session({ userId: 8, tokenId: 13, csrfToken: 'other' }));
    t.same(await store.get(id(1)), session());
    t.same(await store.get(id(2)), session({ userId: 8, tokenId: 13, csrfToken: 'other' }));
    t.equal(await store.get(id(3)), undefined);
  });

  withStore('touch moves the idle deadline forwards only, and never makes a session', async (t, { store }) => {
    await store.create(id(1), session());
    t.equal(await store.touch(id(1), T0 + 5 * MINUTE, T0 + 35 * MINUTE), true);
    t.same(await store.get(id(1)), session({ lastSeenAt: T0 + 5 * MINUTE, idleExpiresAt: T0 + 35 * MINUTE }));
    t.equal(await store.touch(id(1), T0 + 2 * MINUTE, T0 + 32 * MINUTE), true, 'an earlier use (a slower replica) still finds the session');
    t.same(await store.get(id(1)), session({ lastSeenAt: T0 + 5 * MINUTE, idleExpiresAt: T0 + 35 * MINUTE }), 'but does not move it back');
    t.equal(await store.touch(id(9), T0 + 5 * MINUTE, T0 + 35 * MINUTE), false, 'no such session');
    t.equal(await store.get(id(9)), undefined, 'and none was made');
  });

  withStore('delete removes a session, and a touch after it does not bring it back', async (t, { store }) => {
    await store.create(id(1), session());
    await store.create(id(2), session());
    t.equal(await store.delete(id(1)), true);
    t.equal(await store.get(id(1)), undefined);
    t.equal(await store.delete(id(1)), false, 'a second delete finds none');
    t.equal(await store.touch(id(1), T0 + MINUTE, T0 + 31 * MINUTE), false);
    t.equal(await store.get(id(1)), undefined);
    t.same(await store.get(id(2)), session(), 'the other session stays');
  });

  withStore("two handles on one store see each other's sessions and sign-outs", async (t, { store, openAnother, track }) => {
    const other = track(await openAnother());
    await store.create(id(1), session());
    t.same(await other.get(id(1)), session(), 'made on one, read on the other');
    t.equal(await other.touch(id(1), T0 + 3 * MINUTE, T0 + 33 * MINUTE), true);
    t.same(await store.get(id(1)), session({ lastSeenAt: T0 + 3 * MINUTE, idleExpiresAt: T0 + 33 * MINUTE }), 'touched on the other, seen on the first');
    t.equal(await other.delete(id(1)), true);
    t.equal(await store.get(id(1)), undefined, 'deleted on the other, gone on the first');
  });

  withStore('a session is kept for a day after its idle deadline, then forgotten; sweep removes what is forgotten', async (t, { store, clock }) => {
    await store.create(id(1), session());
    await store.create(id(2), session({ idleExpiresAt: T0 + 60 * MINUTE }));
    clock.now = T0 + 30 * MINUTE + SESSION_KEPT_MS - 1;
    t.same(await store.get(id(1)), session(), 'past its idle deadline, still answered (the service says why it ended)');
    t.equal(await store.sweep(), 0, 'nothing to sweep yet');
    clock.now = T0 + 30 * MINUTE + SESSION_KEPT_MS;
    t.equal(await store.get(id(1)), undefined, 'a day after its idle deadline: forgotten');
    t.equal(await store.touch(id(1), clock.now, clock.now + 30 * MINUTE), false, 'and cannot be touched back to life');
    const swept = await store.sweep();
    t.equal(swept, store.kind === 'lmdb' ? 1 : 0, 'LMDB removes it; Redis keys expire by themselves');
    t.equal(await store.get(id(1)), undefined);
    t.same(await store.get(id(2)), session({ idleExpiresAt: T0 + 60 * MINUTE }), 'a session still kept stays');
  });
}
