/**
 * The signed-in session, as the server's session endpoint tells it
 * (`/api/console/v1/session`): a personal token is exchanged once for an HttpOnly cookie; the
 * console keeps only the user, their rights and the CSRF proof, never the token.
 */
import { signal } from '@preact/signals';

export interface Session {
  user: { id: number; name: string };
  /** Platform rights, e.g. `base-system.admin`, `base-system.sla.read`. */
  rights: string[];
  csrfToken: string;
  /** ISO instants: when the session ends if unused, and at the latest. */
  idleExpiresAt: string;
  expiresAt: string;
}

export const SESSION_PATH = '/api/console/v1/session';

/** undefined: not known yet (loading); null: signed out. */
export const session = signal<Session | null | undefined>(undefined);

export const csrfToken = (): string | undefined => session.value?.csrfToken ?? undefined;
export const hasRight = (right: string): boolean => session.value?.rights.includes(right) ?? false;

export function sessionEnded(): void {
  session.value = null;
}

/** Reads the session the cookie stands for, if any. */
export async function loadSession(): Promise<void> {
  const answer = await fetch(SESSION_PATH, { credentials: 'same-origin' });
  session.value = answer.ok ? ((await answer.json()) as Session) : null;
}

/** Exchanges a personal token for a session; the answer's problem `detail` on failure. */
export async function signIn(token: string): Promise<string | undefined> {
  const answer = await fetch(SESSION_PATH, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const body = (await answer.json().catch(() => ({}))) as Session & { detail?: string };
  if (!answer.ok) return body.detail ?? `Sign-in failed (${answer.status})`;
  session.value = body;
  return undefined;
}

/** Revokes the session on the server, then forgets it here. */
export async function signOut(): Promise<void> {
  const proof = csrfToken();
  await fetch(SESSION_PATH, { method: 'DELETE', credentials: 'same-origin', headers: proof ? { 'X-CSRF-Token': proof } : {} }).catch(() => undefined);
  session.value = null;
}
