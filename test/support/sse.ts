/**
 * A Server-Sent Events client for tests: opens the stream with fetch, parses its frames, and lets a
 * test wait for the events it expects (by condition, never by time) and close the stream.
 */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

export interface SseClient {
  status: number;
  headers: Headers;
  events: SseEvent[];
  /** Comment lines seen (keep-alives). */
  comments: number;
  /** Resolves once `check` holds for the events so far (rejects after `timeoutMs`, or when the stream ends first). */
  until(what: string, check: (events: SseEvent[]) => boolean, timeoutMs?: number): Promise<SseEvent[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string>): Promise<SseClient> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const waiters = new Set<() => void>();
  const client: SseClient = {
    status: response.status,
    headers: response.headers,
    events: [],
    comments: 0,
    ended: Promise.resolve(),
    until(what, check, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const test = (): void => {
          if (check(client.events)) {
            waiters.delete(test);
            clearTimeout(timer);
            resolve(client.events);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(test);
          reject(new Error(`timed out waiting for ${what}; events so far: ${JSON.stringify(client.events.map((e) => e.event))}`));
        }, timeoutMs);
        waiters.add(test);
        test();
      });
    },
    close: () => controller.abort(),
  };
  if (!response.body || response.status !== 200) return client;
  client.ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { event: 'message', data: '' };
          let isComment = true;
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) continue;
            isComment = false;
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') event.id = value;
            else if (field === 'event') event.event = value;
            else if (field === 'data') event.data = event.data ? `${event.data}\n${value}` : value;
          }
          if (isComment) client.comments++;
          else if (event.data !== '' || event.id !== undefined) client.events.push(event);
          for (const w of [...waiters]) w();
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return client;
}
