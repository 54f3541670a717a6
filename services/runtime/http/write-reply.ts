import type { HttpResponse } from 'uWebSockets.js';
import { STATUS_CODES } from 'node:http';
import type { Reply } from './route.js';

export interface ResponseState {
  aborted: boolean;
  done: boolean;
  /** Set while a streamed reply is written: ends its stream (the client went away). */
  stopStream?: () => void;
}

/**
 * The status lines and the header names every answer has, as bytes: uWS copies bytes as they are,
 * where each string would be measured and encoded to UTF-8 on every answer.
 */
const statusLines = new Map<number, Buffer>();
const statusLine = (status: number): Buffer => {
  let line = statusLines.get(status);
  if (!line) statusLines.set(status, (line = Buffer.from(`${status} ${STATUS_CODES[status] ?? ''}`)));
  return line;
};
const REQUEST_ID = Buffer.from('x-request-id');
const CONTENT_TYPE = Buffer.from('content-type');
const JSON_TYPE = 'application/json';
const JSON_TYPE_BYTES = Buffer.from(JSON_TYPE);

function writeHead(res: HttpResponse, reply: Reply, requestId: string, contentType: string | undefined): void {
  res.writeStatus(statusLine(reply.status));
  res.writeHeader(REQUEST_ID, requestId);
  let hasType = false;
  if (reply.headers) {
    for (const name in reply.headers) {
      if (name.toLowerCase() === 'content-type') hasType = true;
      res.writeHeader(name, reply.headers[name]!);
    }
  }
  if (!hasType && contentType) res.writeHeader(CONTENT_TYPE, contentType === JSON_TYPE ? JSON_TYPE_BYTES : contentType);
}

/**
 * Writes a reply with a whole body in one corked write, synchronously: most answers are small,
 * and a promise per answer showed up in the ingestion profile. `corked`: called from the route
 * handler's own turn, where uWS has corked the response already (its docs: "you're corked in the
 * immediately executing top portion of the route handler"), so no cork call (a round trip from
 * JavaScript to uWS and back) is made. `head`: the answer to a HEAD request, its headers and the
 * length the body would have, no body.
 */
export function writeWhole(res: HttpResponse, state: ResponseState, reply: Reply, requestId: string, closeConnection = false, head = false, corked = false): void {
  if (state.aborted) return;
  let payload: string | Buffer | undefined;
  let contentType: string | undefined;
  if (reply.body === undefined || reply.status === 204) payload = undefined;
  else if (typeof reply.body === 'string' || Buffer.isBuffer(reply.body)) payload = reply.body;
  else {
    payload = JSON.stringify(reply.body);
    contentType = JSON_TYPE;
  }
  if (corked) writeWholeCorked(res, reply, requestId, payload, contentType, closeConnection, head);
  else res.cork(() => writeWholeCorked(res, reply, requestId, payload, contentType, closeConnection, head));
}

function writeWholeCorked(
  res: HttpResponse,
  reply: Reply,
  requestId: string,
  payload: string | Buffer | undefined,
  contentType: string | undefined,
  closeConnection: boolean,
  head: boolean,
): void {
  writeHead(res, reply, requestId, contentType);
  // uWS's endWithoutBody(n) with n > 0 leaves the response waiting for n bytes that never come,
  // and the next request on a kept-alive connection is lost (a HEAD health check, then a
  // POST); an explicit `undefined` is read as a huge length. So a HEAD's length is written as a
  // header and the answer ended by endWithoutBody() without arguments, which adds no length: the
  // same for a 304, which reports none (RFC 9110 §8.6). A connection being closed anyway keeps
  // the simple call.
  if (!closeConnection && (reply.status === 304 || (head && payload !== undefined))) {
    if (reply.status !== 304) res.writeHeader('content-length', String(Buffer.byteLength(payload!)));
    res.endWithoutBody();
  } else if (payload === undefined || head) res.endWithoutBody(payload === undefined ? 0 : Buffer.byteLength(payload), closeConnection);
  else res.end(payload, closeConnection);
}

/**
 * Writes a streamed reply (`reply.stream`) chunk by chunk, waiting when the socket is full. The
 * stream is ended (its iterator's `return`) when the client goes away, and, for a `live` reply,
 * when the server stops (`hold` registers how to end it, and returns how to unregister).
 */
export async function writeStream(
  res: HttpResponse,
  state: ResponseState,
  reply: Reply & { stream: AsyncIterable<Uint8Array | string> },
  requestId: string,
  hold?: (stop: () => void) => () => void,
): Promise<void> {
  if (state.aborted) return;
  res.cork(() => writeHead(res, reply, requestId, 'application/octet-stream'));
  const iterator = reply.stream[Symbol.asyncIterator]();
  const stop = (): void => void iterator.return?.()?.catch(() => undefined);
  state.stopStream = stop;
  const release = reply.live ? hold?.(stop) : undefined;
  try {
    for (;;) {
      const { value: chunk, done } = await iterator.next();
      if (done || state.aborted) break;
      let ok = true;
      res.cork(() => (ok = res.write(chunk)));
      if (!ok)
        await new Promise<void>((resolve) =>
          res.onWritable(() => {
            resolve();
            return true;
          }),
        );
    }
  } finally {
    release?.();
    state.stopStream = undefined;
  }
  if (!state.aborted) res.cork(() => res.end());
}
