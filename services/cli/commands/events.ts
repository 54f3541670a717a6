/**
 * `ops events tail <stream>`: a stream's new events as they arrive, from the live tail of the
 * public API (issue #30, GET /api/public/cl/v1/streams/{id}/events/stream, Server-Sent Events).
 * One line per `record` event on stdout (compact JSON with --json, else `ts  route  record`),
 * and a note on stderr per `sampled` event. It runs until interrupted: SIGINT (or the run's
 * `interrupt` signal) ends it with exit 0; the platform ending the stream is an error.
 */
import { type Execute, type NounSpec, seg, str, strs } from '../spec.js';
import { cell, isRecord, printable } from '../table.js';

const PREFIX = '/api/public/cl/v1';

export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/**
 * A Server-Sent Events parser as far as a client that does not reconnect needs it (the WHATWG
 * rules for `event`, `data`, `id`, comments and any of the three line ends): text in, in chunks
 * cut anywhere, whole messages out. `retry` and unknown fields are ignored.
 */
export function createSseParser(): (text: string) => SseMessage[] {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  return (text) => {
    buffer += text;
    const out: SseMessage[] = [];
    // A trailing \r may be the first half of \r\n: it waits for the next chunk.
    const complete = buffer.endsWith('\r') ? buffer.length - 1 : buffer.length;
    const lines = buffer.slice(0, complete).split(/\r\n|\r|\n/);
    buffer = lines.pop()! + buffer.slice(complete);
    for (const line of lines) {
      if (line === '') {
        if (data.length > 0) out.push({ event: event || 'message', data: data.join('\n'), ...(id === undefined ? {} : { id }) });
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id' && !value.includes('\0')) id = value;
    }
    return out;
  };
}

/** A record event's line: its JSON on one line, or `ts  route  record` (`-` for no route). */
export function recordLine(data: string, json: boolean): string | undefined {
  let item: unknown;
  try {
    item = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (json) return `${JSON.stringify(item)}\n`;
  if (!isRecord(item)) return `${cell(item)}\n`;
  return `${[item['ts'], item['route'] === '' ? undefined : item['route'], item['record']].map(cell).join('  ')}\n`;
}

/** The stderr note for a `sampled` event: `{"rate","seen","sent"}` of one second. */
export function sampledNote(data: string): string {
  let sample: unknown;
  try {
    sample = JSON.parse(data);
  } catch {
    sample = undefined;
  }
  if (!isRecord(sample)) return 'note: sampled: not every record of that second was sent\n';
  return `note: sampled: ${cell(sample['sent'])} of ${cell(sample['seen'])} new records of that second were sent (rate ${cell(sample['rate'])})\n`;
}

/** SIGINT as a signal, for as long as the tail runs. */
function onSigint(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  process.once('SIGINT', abort);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', abort) };
}

const tail: Execute = async (request, ctx) => {
  const sigint = ctx.interrupt ? undefined : onSigint();
  const signal = ctx.interrupt ?? sigint!.signal;
  try {
    const opened = await ctx.client.open(request, signal);
    if (!opened.ok) return signal.aborted ? undefined : opened.failure;
    const body = opened.response.body;
    if (!body) return { kind: 'network', message: 'the live tail answered without a body' };
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    const parse = createSseParser();
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal.aborted) return undefined;
        return { kind: 'network', message: `the live tail broke off: ${printable(error instanceof Error ? error.message : String(error))}` };
      }
      if (chunk.done) return signal.aborted ? undefined : { kind: 'network', message: 'the platform ended the live tail' };
      for (const message of parse(chunk.value)) {
        if (message.event === 'record') {
          const line = recordLine(message.data, ctx.json);
          if (line === undefined) ctx.stderr.write('note: skipped a record that is not JSON\n');
          else ctx.stdout.write(line);
        } else if (message.event === 'sampled') ctx.stderr.write(sampledNote(message.data));
      }
    }
  } finally {
    sigint?.dispose();
  }
};

export const events: NounSpec = {
  name: 'events',
  summary: "A stream's events (public API /api/public/cl/v1/streams)",
  commands: [
    {
      verb: 'tail',
      summary: "Print a stream's new events as they arrive (--json: one JSON object a line) until interrupted (Ctrl-C)",
      args: [{ name: 'stream', description: 'The stream id', kind: 'id' }],
      options: {
        filter: { type: 'string', value: 'field=value', multiple: true, description: 'Only records where it holds: field=value, field!=value or field~part; all must hold' },
        route: { type: 'string', value: 'r', description: 'Only records with this route label' },
      },
      prepare: (i) => {
        const query = new URLSearchParams();
        for (const filter of strs(i, 'filter') ?? []) query.append('filter', filter);
        const route = str(i, 'route');
        if (route !== undefined) query.set('route', route);
        const path = `/streams/${seg(i.args['stream']!)}/events/stream`;
        return { ok: true, request: { method: 'GET', prefix: PREFIX, path: query.size === 0 ? path : `${path}?${query}` } };
      },
      // Unused: execute writes each line as it comes.
      render: () => '',
      execute: tail,
    },
  ],
};
