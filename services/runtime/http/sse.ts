/**
 * Server-Sent Events (text/event-stream) as a route's `Reply.stream`: a channel the route pushes
 * frames into and the server pulls from as the socket takes them. What the client has not taken
 * yet is bounded: past the bound the client is too slow, and the channel ends with one last
 * `disconnect` event saying so, instead of buffering without end. The bound is checked once the
 * server had a turn to hand the queue to the socket: a burst sent at once (one change message of a
 * bulk acknowledgement, a replay after Last-Event-ID) passes to a client that takes it, instead of
 * disconnecting it every time it comes back; a burst beyond `BURST_FACTOR` times the bound ends it
 * at once. A comment line at an interval keeps proxies from closing an idle stream.
 */

/** A burst queued in one go may reach this many times the bound before the client had a chance. */
const BURST_FACTOR = 8;

export interface SseChannel extends AsyncIterable<string> {
  /** Queues a frame; false once the channel is closed (by the client, the server, or overflow). */
  send(frame: string): boolean;
  /** Ends the stream after the frames queued (and `last`, if given). */
  close(last?: string): void;
  readonly closed: boolean;
}

export interface SseOptions {
  /** Bytes queued for the client beyond which it is disconnected as too slow. */
  maxQueuedBytes: number;
  /** A comment line this often (ms); 0: none. */
  keepAliveMs: number;
  /** Called once when the channel closes, whoever closed it. */
  onClose?: () => void;
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' } as const;

/** One event; `data` is written on one line (JSON never holds a raw newline). */
export function sseFrame(event: string, data: string, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`;
}

export function createSseChannel(options: SseOptions): SseChannel {
  let queue: string[] = [];
  let queuedBytes = 0;
  let closed = false;
  let ended = false;
  let wake: (() => void) | undefined;
  let checking = false;
  const timer = options.keepAliveMs > 0 ? setInterval(() => push(': keep-alive\n\n'), options.keepAliveMs) : undefined;
  timer?.unref();

  function push(frame: string): void {
    queue.push(frame);
    queuedBytes += Buffer.byteLength(frame);
    wake?.();
  }

  function finish(last?: string): void {
    if (closed) return;
    closed = true;
    if (timer) clearInterval(timer);
    if (last !== undefined) {
      queue.push(last);
      queuedBytes += Buffer.byteLength(last);
    }
    wake?.();
    options.onClose?.();
  }

  /** Whatever waits is dropped: the client is told why and reconnects with Last-Event-ID. */
  function overflow(): void {
    queue = [];
    queuedBytes = 0;
    finish(sseFrame('disconnect', JSON.stringify({ reason: 'slow-consumer', detail: `more than ${options.maxQueuedBytes} bytes waited for this client` })));
  }

  const channel: SseChannel = {
    get closed() {
      return closed;
    },
    send(frame) {
      if (closed) return false;
      if (queuedBytes + Buffer.byteLength(frame) > options.maxQueuedBytes * BURST_FACTOR) {
        overflow();
        return false;
      }
      push(frame);
      if (queuedBytes > options.maxQueuedBytes && !checking) {
        checking = true;
        setImmediate(() => {
          checking = false;
          if (!closed && queuedBytes > options.maxQueuedBytes) overflow();
        });
      }
      return true;
    },
    close: (last) => finish(last),
    [Symbol.asyncIterator]() {
      return {
        async next(): Promise<IteratorResult<string>> {
          while (queue.length === 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          if (queue.length === 0 || ended) return { done: true, value: undefined };
          const chunk = queue.length === 1 ? queue[0]! : queue.join('');
          queue = [];
          queuedBytes = 0;
          if (closed) ended = true;
          return { done: false, value: chunk };
        },
        async return(): Promise<IteratorResult<string>> {
          ended = true;
          finish();
          return { done: true, value: undefined };
        },
      };
    },
  };
  return channel;
}
