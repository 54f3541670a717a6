/**
 * A user's personal tokens: the list (never their secrets), issuing one (the secret is in the
 * issue's answer only, so it is shown here once, with a copy button, and forgotten when the panel
 * goes), and revoking one (it stays listed, with when).
 */
import { useState } from 'preact/hooks';
import { type ApiProblem, api } from '../app/api.js';
import { utc } from '../app/time.js';
import { DeleteButton, type IssuedToken, send, textOf, type User } from './admin-kit.js';
import { Field, FormError } from './cmdb-field.js';
import { errorAt, formError } from './cmdb-model.js';
import { Load, TableScroll, useLoad } from './load.js';
import { isoOfInput } from './problem-filters.js';
import { Time } from './time.js';

function IssuedSecret({ issued, onDismiss }: { issued: IssuedToken; onDismiss: () => void }) {
  const [copied, setCopied] = useState<string | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(issued.token);
      setCopied('Copied to the clipboard.');
    } catch {
      // Without clipboard access (an insecure origin, a denied permission) the text is selected instead.
      (document.getElementById('issued-token') as HTMLInputElement | null)?.select();
      setCopied('Selected: press Ctrl+C (⌘C) to copy.');
    }
  };
  return (
    <div class="issued-token" role="group" aria-labelledby="issued-token-h">
      <h4 id="issued-token-h">Token “{issued.name}” issued</h4>
      <p>Copy it now: it is shown only this once, and cannot be read again.</p>
      <div class="inline-field">
        <label for="issued-token">New token</label>
        <input id="issued-token" class="mono" readOnly value={issued.token} size={52} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={copy}>
          Copy
        </button>
        <button type="button" onClick={onDismiss}>
          Done
        </button>
      </div>
      <p role="status" class="muted">
        {copied ?? ''}
      </p>
    </div>
  );
}

function IssueForm({ user, onIssued }: { user: User; onIssued: (issued: IssuedToken) => void }) {
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    const expires = isoOfInput(textOf(form, 'expiresAt'), utc.value);
    setBusy(true);
    const { data, problem: refused } = await send(
      api.POST('/api/admin/v1/users/{id}/tokens', {
        params: { path: { id: String(user.id) } },
        body: { name: textOf(form, 'name'), ...(expires ? { expiresAt: expires } : {}) },
      }),
    );
    setBusy(false);
    setProblem(refused);
    if (data) {
      formElement.reset();
      onIssued(data);
    }
  };
  const errors = { name: errorAt(problem, 'name'), expiresAt: errorAt(problem, 'expiresAt', ['token.expiry_past']) };
  return (
    <form class="admin-form" aria-label={`Issue a token for ${user.name}`} onSubmit={submit} noValidate>
      <Field id="token-name" label="Token name" error={errors.name} hint="What it is for, e.g. laptop or ci-pipeline">
        {(a11y) => <input {...a11y} name="name" autoComplete="off" maxLength={100} />}
      </Field>
      <Field id="token-expires" label={`Expires (optional, ${utc.value ? 'UTC' : 'your time zone'})`} error={errors.expiresAt}>
        {(a11y) => <input {...a11y} name="expiresAt" type="datetime-local" />}
      </Field>
      <FormError message={formError(problem, Object.values(errors))} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy || user.disabled}>
          {busy ? 'Issuing…' : 'Issue token'}
        </button>
      </div>
    </form>
  );
}

export function AdminTokens({ user }: { user: User }) {
  const [tokens, reload] = useLoad((signal) => api.GET('/api/admin/v1/users/{id}/tokens', { params: { path: { id: String(user.id) } }, signal }), [user.id], {
    keepOnReload: true,
  });
  const [issued, setIssued] = useState<IssuedToken | undefined>();
  return (
    <section aria-labelledby="tokens-h" class="admin-panel">
      <h3 id="tokens-h">Tokens of {user.name}</h3>
      {issued && <IssuedSecret issued={issued} onDismiss={() => setIssued(undefined)} />}
      <Load loaded={tokens} label="tokens">
        {(list) =>
          list.length === 0 ? (
            <p class="muted">No token yet.</p>
          ) : (
            <TableScroll label="Tokens">
              <table>
                <caption class="visually-hidden">Tokens of {user.name}</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Issued</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Last used</th>
                    <th scope="col">State</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((t) => (
                    <tr key={t.id}>
                      <td>{t.name || <span class="muted">unnamed</span>}</td>
                      <td>
                        <Time iso={t.createdAt} />
                      </td>
                      <td>{t.expiresAt ? <Time iso={t.expiresAt} /> : <span class="muted">never</span>}</td>
                      <td>{t.lastUsedAt ? <Time iso={t.lastUsedAt} /> : <span class="muted">never</span>}</td>
                      <td>
                        {t.revokedAt ? (
                          <span class="badge disabled">
                            Revoked <Time iso={t.revokedAt} />
                          </span>
                        ) : (
                          'Valid'
                        )}
                      </td>
                      <td>
                        {!t.revokedAt && (
                          <DeleteButton
                            what={`the token “${t.name || t.id}”`}
                            label="Revoke"
                            remove={() => send(api.DELETE('/api/admin/v1/users/{id}/tokens/{tokenId}', { params: { path: { id: String(user.id), tokenId: String(t.id) } } }))}
                            onDone={reload}
                          />
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )
        }
      </Load>
      <IssueForm
        user={user}
        onIssued={(token) => {
          setIssued(token);
          reload();
        }}
      />
    </section>
  );
}
