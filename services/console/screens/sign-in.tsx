/** Sign-in: a personal token exchanged for a session cookie; back to the page asked for. */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { signIn } from '../app/session.js';

export default function SignIn() {
  const { query, route } = useLocation();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const token = new FormData(event.currentTarget as HTMLFormElement).get('token');
    setBusy(true);
    const failed = await signIn(String(token ?? '').trim());
    setBusy(false);
    if (failed) setError(failed);
    else route(query.next && query.next.startsWith('/') && !query.next.startsWith('//') ? query.next : '/problems', true);
  };
  return (
    <main class="sign-in">
      <h1>Operations console</h1>
      <form onSubmit={submit} aria-describedby={error ? 'sign-in-error' : undefined}>
        <label for="token">Token</label>
        <input id="token" name="token" type="password" autoComplete="off" required aria-invalid={error ? true : undefined} />
        {error && (
          <p id="sign-in-error" class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p class="hint">
        A personal token: <code>{'npx ops tokens issue <user id>'}</code>, or the admin token printed at the first start.
      </p>
    </main>
  );
}
