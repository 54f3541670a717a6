/**
 * Every stream, for admins and stream readers (GET …/cl/v1/streams: no keys): its status and the
 * last hour's records and dead letters per second with a sparkline, each a link to its page.
 */
import { api } from '../app/api.js';
import { Load, TableScroll, useLoad } from './load.js';
import { ActivityCell } from './stream-activity.js';
import { StatusBadge } from './stream-status.js';

export function StreamList() {
  const [loaded] = useLoad((signal) => api.GET('/api/public/cl/v1/streams', { signal }), []);
  return (
    <Load loaded={loaded} label="streams">
      {(streams) =>
        streams.length === 0 ? (
          <p class="muted">No stream yet. Streams are created with the admin API or `npx ops streams create`.</p>
        ) : (
          <TableScroll label="Streams table">
            <table class="stream-list">
              <caption class="visually-hidden">Streams</caption>
              <thead>
                <tr>
                  <th scope="col">Id</th>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last hour</th>
                  <th scope="col">Framing</th>
                  <th scope="col">Parser</th>
                  <th scope="col">Route label</th>
                </tr>
              </thead>
              <tbody>
                {streams.map((s) => (
                  <tr key={s.id}>
                    <td>{s.id}</td>
                    <td>
                      <a href={`/streams?stream=${s.id}`}>{s.name}</a>
                    </td>
                    <td>
                      <StatusBadge status={s.status} />
                    </td>
                    <td>
                      <ActivityCell id={String(s.id)} />
                    </td>
                    <td>{s.config.framing ?? 'body'}</td>
                    <td>{s.config.parser ? s.config.parser.type : <span class="muted">JSON</span>}</td>
                    <td>{s.config.routeLabel ?? ''}</td>
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
