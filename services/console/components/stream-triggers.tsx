/**
 * The triggers listening to a stream (admins): each a link to its editor, and a way to write a
 * new one for this stream. The admin screen's triggers list stays read-only; editing is here.
 */
import { api } from '../app/api.js';
import { Load, TableScroll, useLoad } from './load.js';

const PRIORITY = (p: { value: number } | { field: string }): string => ('value' in p ? `P${p.value}` : `from ${p.field}`);

export function StreamTriggers({ id }: { id: number }) {
  const [loaded] = useLoad((signal) => api.GET('/api/admin/v1/triggers', { params: { query: { streamId: id } }, signal }), [id]);
  return (
    <section class="stream-triggers" aria-labelledby="stream-triggers-h">
      <h2 id="stream-triggers-h">Triggers</h2>
      <p>
        <a class="button" href={`/streams/triggers/new?stream=${id}`}>
          New trigger
        </a>
      </p>
      <Load loaded={loaded} label="triggers">
        {(list) =>
          list.length === 0 ? (
            <p class="muted">No trigger listens to this stream: its records open no problem.</p>
          ) : (
            <TableScroll label="Triggers of this stream">
              <table>
                <caption class="visually-hidden">Triggers of this stream</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Enabled</th>
                    <th scope="col">Conditions</th>
                    <th scope="col">Priority</th>
                    <th scope="col">Problems</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((t) => (
                    <tr key={t.id}>
                      <td>
                        <a href={`/streams/triggers/${t.id}?stream=${id}`}>{t.name}</a>
                      </td>
                      <td>{t.enabled ? 'Yes' : 'No'}</td>
                      <td>{t.match.length === 0 ? <span class="muted">every record</span> : t.match.map((m) => m.field).join(', ')}</td>
                      <td>{PRIORITY(t.priority)}</td>
                      <td>
                        <a href={`/problems?triggerIds=${t.id}`} aria-label={`Open problems of ${t.name}`}>
                          Open problems
                        </a>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )
        }
      </Load>
    </section>
  );
}
