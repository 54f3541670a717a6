/**
 * The triggers, read only (they are written through the API and the CLI): each with its streams
 * and a link to its open problems.
 */
import { api } from '../app/api.js';
import { Load, TableScroll, useLoad } from './load.js';

export function AdminTriggers() {
  const [triggers] = useLoad((signal) => api.GET('/api/admin/v1/triggers', { signal }), []);
  return (
    <Load loaded={triggers} label="triggers">
      {(list) =>
        list.length === 0 ? (
          <p class="muted">No trigger yet.</p>
        ) : (
          <TableScroll label="Triggers">
            <table>
              <caption class="visually-hidden">Triggers</caption>
              <thead>
                <tr>
                  <th scope="col">Id</th>
                  <th scope="col">Name</th>
                  <th scope="col">Enabled</th>
                  <th scope="col">Streams</th>
                  <th scope="col">Description</th>
                  <th scope="col">Problems</th>
                </tr>
              </thead>
              <tbody>
                {list.map((t) => (
                  <tr key={t.id}>
                    <td>{t.id}</td>
                    <td>{t.name}</td>
                    <td>{t.enabled ? 'Yes' : 'No'}</td>
                    <td>
                      {t.streamIds.map((id) => (
                        <a key={id} class="sep" href={`/streams?stream=${id}`}>
                          {id}
                        </a>
                      ))}
                    </td>
                    <td>{t.description}</td>
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
  );
}
