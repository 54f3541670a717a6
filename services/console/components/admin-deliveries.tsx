/**
 * A receiver's delivery log (one row per attempt, newest first, kept 30 days), a page at a time
 * by the API's keyset cursor, and asking for a message to be sent again (replay: 202, the
 * dispatcher takes it up; at most 100 wait per receiver).
 */
import { useEffect, useState } from 'preact/hooks';
import { type ApiProblem, api } from '../app/api.js';
import { type Delivery, Notice, type Receiver, send } from './admin-kit.js';
import { ApiAlert, TableScroll } from './load.js';
import { Time } from './time.js';

const PAGE = 50;

export function AdminDeliveries({ receiver }: { receiver: Receiver }) {
  const [items, setItems] = useState<Delivery[] | undefined>();
  const [next, setNext] = useState<string | null>(null);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const [round, setRound] = useState(0);

  const load = async (cursor: string | null) => {
    setBusy(true);
    const { data, problem: refused } = await send(
      api.GET('/api/admin/v1/notifications/receivers/{id}/deliveries', { params: { path: { id: String(receiver.id) }, query: { limit: PAGE, ...(cursor ? { cursor } : {}) } } }),
    );
    setBusy(false);
    setProblem(refused);
    if (data) {
      setItems((before) => (cursor && before ? [...before, ...data.items] : data.items));
      setNext(data.nextCursor);
    }
  };
  useEffect(() => {
    setItems(undefined);
    void load(null);
  }, [receiver.id, round]);

  const replay = async (delivery: Delivery) => {
    setNotice(undefined);
    const { data, problem: refused } = await send(
      api.POST('/api/admin/v1/notifications/receivers/{id}/deliveries/{deliveryId}/replay', { params: { path: { id: String(receiver.id), deliveryId: delivery.deliveryId } } }),
    );
    setProblem(refused);
    if (data) setNotice(`Replay of message ${delivery.deliveryId} asked at ${new Date(data.requestedAt).toLocaleTimeString()}: it will be sent again.`);
  };

  return (
    <section aria-labelledby="deliveries-h" class="admin-panel">
      <div class="section-head">
        <h4 id="deliveries-h">Delivery log</h4>
        <button type="button" class="small" onClick={() => setRound((n) => n + 1)} disabled={busy}>
          Refresh
        </button>
      </div>
      <ApiAlert problem={problem} />
      <Notice text={notice} />
      {items === undefined ? (
        busy && <p class="loading">Loading deliveries…</p>
      ) : items.length === 0 ? (
        <p class="muted">Nothing delivered to this receiver in the last 30 days.</p>
      ) : (
        <>
          <TableScroll label="Deliveries">
            <table>
              <caption class="visually-hidden">Deliveries to {receiver.name}, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">At</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Events</th>
                  <th scope="col">Policy</th>
                  <th scope="col">Answer</th>
                  <th scope="col">Message</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <Time iso={d.at} />
                    </td>
                    <td>
                      <span class={`badge delivery-${d.status}`}>{d.status}</span>
                    </td>
                    <td>{d.attempt}</td>
                    <td>{d.eventKinds.join(', ')}</td>
                    <td>
                      <a href={`/admin/policies?policy=${d.policyId}`}>#{d.policyId}</a>
                    </td>
                    <td>
                      {d.statusCode ?? ''}
                      {d.latencyMs !== null ? <span class="muted"> {d.latencyMs} ms</span> : null}
                      {d.error ? <div class="field-error">{d.error}</div> : null}
                    </td>
                    <td>
                      <code>{d.deliveryId}</code>
                    </td>
                    <td>
                      <button type="button" class="small" aria-label={`Replay message ${d.deliveryId}`} onClick={() => replay(d)}>
                        Replay
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          {next && (
            <button type="button" onClick={() => load(next)} disabled={busy}>
              {busy ? 'Loading…' : 'Older deliveries'}
            </button>
          )}
        </>
      )}
    </section>
  );
}
