/**
 * The user's calendar feeds (iCalendar subscriptions of the modes they may see): create one
 * (a name and, optionally, the list's search), copy its URL, which the API shows only once,
 * and revoke one (its URL answers 401 from then on).
 */
import { useState } from 'preact/hooks';
import { type ApiProblem, api, fieldError, problemOf } from '../app/api.js';
import { Field } from './cmdb-field.js';
import { ConfirmDialog } from './confirm.js';
import { ApiAlert, Load, TableScroll, useLoad } from './load.js';
import { Time } from './time.js';

interface Feed {
  id: number;
  name: string;
  search: string | null;
  createdAt: string;
  revokedAt: string | null;
}

function NewFeedUrl({ url, onDismiss }: { url: string; onDismiss: () => void }) {
  const [copied, setCopied] = useState<string | undefined>();
  return (
    <div class="notice mfeed-url" role="status">
      <p>The feed’s address, shown this once: subscribe to it in a calendar client.</p>
      <label for="mfeed-url">Feed URL</label>
      <input id="mfeed-url" readOnly value={url} class="mono" onFocus={(e) => e.currentTarget.select()} />
      <div class="buttons">
        <button
          type="button"
          onClick={() =>
            navigator.clipboard.writeText(url).then(
              () => setCopied('Copied.'),
              () => setCopied('The browser refused; select the address and copy it.'),
            )
          }
        >
          Copy URL
        </button>
        <button type="button" onClick={onDismiss}>
          Done
        </button>
        {copied && <span class="muted">{copied}</span>}
      </div>
    </div>
  );
}

export function CalendarFeeds({ search }: { search: string }) {
  const [loaded, reload] = useLoad((signal) => api.GET('/api/public/sm/v1/rsm-maintenance/calendar-feeds', { signal }), []);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<string | undefined>();
  const [revoking, setRevoking] = useState<Feed | undefined>();

  const create = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const name = String(form.get('name') ?? '').trim();
    const filter = String(form.get('search') ?? '').trim();
    setBusy(true);
    setProblem(undefined);
    const { data, error, response } = await api.POST('/api/public/sm/v1/rsm-maintenance/calendar-feeds', {
      body: { ...(name ? { name } : {}), ...(filter ? { search: filter } : {}) },
    });
    setBusy(false);
    if (!data) return setProblem(problemOf(error, response.status));
    setCreated(new URL(data.url, location.origin).href);
    (event.target as HTMLFormElement).reset();
    reload();
  };

  const revoke = async () => {
    if (!revoking) return;
    setBusy(true);
    const { error, response } = await api.DELETE('/api/public/sm/v1/rsm-maintenance/calendar-feeds/{id}', { params: { path: { id: String(revoking.id) } } });
    setBusy(false);
    setRevoking(undefined);
    if (!response.ok) setProblem(problemOf(error, response.status));
    reload();
  };

  return (
    <section aria-labelledby="mfeeds-h" class="mfeeds">
      <h2 id="mfeeds-h">Calendar feeds</h2>
      <p class="muted">A feed shows the modes you may see in any calendar client (iCalendar); recurring modes keep their rule and time zone.</p>
      <form class="inline-form" aria-label="New calendar feed" onSubmit={create} noValidate>
        <Field id="mfeed-name" label="Feed name" error={fieldError(problem, 'name')}>
          {(a11y) => <input {...a11y} name="name" placeholder="Maintenance" maxLength={200} autoComplete="off" />}
        </Field>
        <Field id="mfeed-search" label="Only modes matching (optional)" error={fieldError(problem, 'search')}>
          {(a11y) => <input {...a11y} name="search" defaultValue={search} key={search} autoComplete="off" />}
        </Field>
        <button type="submit" disabled={busy}>
          Create feed
        </button>
      </form>
      {problem && !fieldError(problem, 'name') && !fieldError(problem, 'search') && <ApiAlert problem={problem} />}
      {created && <NewFeedUrl url={created} onDismiss={() => setCreated(undefined)} />}
      <Load loaded={loaded} label="calendar feeds">
        {(feeds) =>
          feeds.length === 0 ? (
            <p class="empty">No calendar feed yet.</p>
          ) : (
            <TableScroll label="Calendar feeds table">
              <table>
                <caption class="visually-hidden">Your calendar feeds</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Modes</th>
                    <th scope="col">Created</th>
                    <th scope="col">State</th>
                  </tr>
                </thead>
                <tbody>
                  {feeds.map((f) => (
                    <tr key={f.id}>
                      <td>{f.name}</td>
                      <td>{f.search ? <>matching “{f.search}”</> : <span class="muted">all you may see</span>}</td>
                      <td>
                        <Time iso={f.createdAt} />
                      </td>
                      <td>
                        {f.revokedAt ? (
                          <span class="muted">
                            Revoked <Time iso={f.revokedAt} />
                          </span>
                        ) : (
                          <button type="button" onClick={() => setRevoking(f)} aria-label={`Revoke ${f.name}`}>
                            Revoke
                          </button>
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
      <ConfirmDialog
        open={revoking !== undefined}
        title={`Revoke the feed ${revoking?.name ?? ''}?`}
        confirmLabel="Revoke"
        busy={busy}
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(undefined)}
      >
        <p>Calendar clients subscribed to it will get no more updates: its address answers 401 from now on. This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}
