/**
 * A problem's hits (the records its trigger matched for its CI while it was open): a strip of dots
 * over the problem's span, drawn as SVG by placing each dot at its share of the span, and the
 * table of the same hits, which is what assistive technology reads.
 */
import { showTime } from '../app/time.js';
import { Time } from './time.js';
import type { ProblemDetail } from './problem-query.js';
import { TableScroll } from './load.js';

type Hit = ProblemDetail['hits']['items'][number];

const WIDTH = 1000;
const HEIGHT = 36;

export function HitStrip({ hits, start, end }: { hits: Hit[]; start: string; end: string | null }) {
  const from = Date.parse(start);
  const to = end === null ? Date.now() : Date.parse(end);
  const span = Math.max(1, to - from);
  const x = (iso: string): number => 8 + ((Math.min(Math.max(Date.parse(iso), from), to) - from) / span) * (WIDTH - 16);
  const summary = `${hits.length} ${hits.length === 1 ? 'hit' : 'hits'} between ${showTime(start)} and ${end === null ? 'now' : showTime(end)}`;
  return (
    <figure class="hit-strip">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} focusable="false">
        <line x1={8} y1={HEIGHT / 2} x2={WIDTH - 8} y2={HEIGHT / 2} class="axis" />
        {hits.map((h) => (
          <circle key={h.eventId} cx={x(h.at)} cy={HEIGHT / 2} r={6} class={h.resolve ? 'hit resolve' : 'hit'}>
            <title>{`${showTime(h.at)}${h.resolve ? ' (resolving)' : ''}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption class="strip-scale">
        <span>
          <Time iso={start} />
        </span>
        <span>{end === null ? 'now' : <Time iso={end} />}</span>
      </figcaption>
    </figure>
  );
}

export function HitTable({ hits }: { hits: Hit[] }) {
  return (
    <TableScroll label="Hits table">
      <table>
        <caption class="visually-hidden">Hits, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Event id</th>
            <th scope="col">Kind</th>
          </tr>
        </thead>
        <tbody>
          {hits.map((h) => (
            <tr key={h.eventId}>
              <td>
                <Time iso={h.at} />
              </td>
              <td>
                <code>{h.eventId}</code>
              </td>
              <td>{h.resolve ? 'Resolving' : 'Firing'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
