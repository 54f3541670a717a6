/**
 * A stream's live tail: its new events as they are stored (Server-Sent Events, the browser's
 * EventSource with the session cookie), newest on top, narrowed by the events API's record filter
 * and route. Pausing keeps the connection and holds what arrives, so resuming shows it in place
 * rather than losing it; the table keeps the newest KEEP rows, so an open tab stays light.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { loadSession } from '../app/session.js';
import { TableScroll } from './load.js';
import { EventHead, type EventItem, EventRow } from './stream-records.js';

const KEEP = 200;
/** Held while paused at most (beyond, the oldest held are dropped and counted). */
const HOLD = 1000;

type Live = 'connecting' | 'live' | 'reconnecting' | 'stopped';

interface Sampled {
  rate: number;
  seen: number;
  sent: number;
}

export function tailUrl(id: string, filter: string, route: string): string {
  const query = new URLSearchParams();
  if (filter) query.append('filter', filter);
  if (route) query.set('route', route);
  const text = query.toString();
  return `/api/public/cl/v1/streams/${encodeURIComponent(id)}/events/stream${text ? `?${text}` : ''}`;
}

const LIVE_TEXT: Record<Live, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  stopped: 'Stopped: the tail was refused or ended',
};

export function StreamTail({ id, filter, route }: { id: string; filter: string; route: string }) {
  const [rows, setRows] = useState<EventItem[]>([]);
  const [held, setHeld] = useState<EventItem[]>([]);
  const [dropped, setDropped] = useState(0);
  const [paused, setPaused] = useState(false);
  const [live, setLive] = useState<Live>('connecting');
  const [sampled, setSampled] = useState<Sampled | undefined>();
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const heldRef = useRef<EventItem[]>([]);

  useEffect(() => {
    setRows([]);
    heldRef.current = [];
    setHeld([]);
    setDropped(0);
    setSampled(undefined);
    setLive('connecting');
    const events = new EventSource(tailUrl(id, filter, route));
    events.addEventListener('record', (event: MessageEvent<string>) => {
      const item = JSON.parse(event.data) as EventItem;
      if (pausedRef.current) {
        if (heldRef.current.length >= HOLD) setDropped((n) => n + 1);
        heldRef.current = [item, ...heldRef.current.slice(0, HOLD - 1)];
        setHeld(heldRef.current);
      } else setRows((list) => [item, ...list].slice(0, KEEP));
    });
    events.addEventListener('sampled', (event: MessageEvent<string>) => setSampled(JSON.parse(event.data) as Sampled));
    events.onopen = () => setLive('live');
    events.onerror = () => {
      const closed = events.readyState === EventSource.CLOSED;
      setLive(closed ? 'stopped' : 'reconnecting');
      // Refused outright (the session ended, the right was taken away): ask whether we are still signed in.
      if (closed) void loadSession();
    };
    return () => events.close();
  }, [id, filter, route]);

  const resume = (): void => {
    setRows((list) => [...heldRef.current, ...list].slice(0, KEEP));
    heldRef.current = [];
    setHeld([]);
    setDropped(0);
    setPaused(false);
  };

  return (
    <div class="stream-tail">
      <div class="stream-tail-bar">
        <span role="status" class={`stream-live stream-live-${live}`}>
          {LIVE_TEXT[live]}
        </span>
        {paused ? (
          <button type="button" class="primary" onClick={resume}>
            Resume
          </button>
        ) : (
          <button type="button" onClick={() => setPaused(true)}>
            Pause
          </button>
        )}
        <button type="button" onClick={() => setRows([])} disabled={rows.length === 0}>
          Clear
        </button>
        <span class="muted" aria-live="polite">
          {paused ? `Paused: ${held.length} new ${held.length === 1 ? 'record' : 'records'} held${dropped > 0 ? ` (${dropped} older dropped)` : ''}` : ''}
        </span>
      </div>
      {sampled && (
        <p class="notice">
          Too many records to show each: in one second {sampled.sent} of {sampled.seen} were sent ({Math.round(sampled.rate * 100)} %). The pages under Events have them all.
        </p>
      )}
      {rows.length === 0 ? (
        <p class="muted">{paused ? 'Paused.' : `Waiting for new records${filter || route ? ' that match the filter' : ''}…`}</p>
      ) : (
        <TableScroll label="Live tail table">
          <table>
            <caption class="visually-hidden">Live tail, newest first</caption>
            <EventHead />
            <tbody>
              {rows.map((item) => (
                <EventRow key={item.id} item={item} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <p class="muted">The newest {KEEP} records stay in this table; a flood of records is sampled to 100 a second.</p>
    </div>
  );
}
