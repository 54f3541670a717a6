import { STATUS_CODES } from 'node:http';
import type { HttpResponse } from 'uWebSockets.js';
import type { Reply } from './route.js';

export interface ResponseState {
  aborted: boolean;
  done: boolean;
}

const statusLines = new Map<number, string>();
const statusLine = (status: number): string => {
  let line = statusLines.get(status);
  if (!line) statusLines.set(status, (line = `${status} ${STATUS_CODES[status] ?? ''}`));
  return line;
};

/** Writes a reply: a whole body in one corked write, or a stream chunk by chunk with backpressure. */
export async function writeReply(res: HttpResponse, state: ResponseState, reply: Reply, requestId: string, closeConnection = false): Promise<void> {
  if (state.aborted) return;
  const headers = reply.headers ?? {};
  const writeHead = (contentType: string | undefined): void => {
    res.writeStatus(statusLine(reply.status));
    res.writeHeader('x-request-id', requestId);
    let hasType = false;
    for (const [name, value] of Object.entries(headers)) {
      if (name.toLowerCase() === 'content-type') hasType = true;
      res.writeHeader(name, value);
    }
    if (!hasType && contentType) res.writeHeader('content-type', contentType);
  };

  if (reply.stream) {
    res.cork(() => writeHead('application/octet-stream'));
    for await (const chunk of reply.stream) {
      if (state.aborted) return;
      let ok = true;
      res.cork(() => (ok = res.write(chunk)));
      if (!ok) await new Promise<void>((resolve) => res.onWritable(() => (resolve(), true)));
    }
    if (!state.aborted) res.cork(() => res.end());
    return;
  }

  let payload: string | Buffer | undefined;
  let contentType: string | undefined;
  if (reply.body === undefined || reply.status === 204) payload = undefined;
  else if (typeof reply.body === 'string' || Buffer.isBuffer(reply.body)) payload = reply.body;
  else {
    payload = JSON.stringify(reply.body);
    contentType = 'application/json';
  }
  res.cork(() => {
    writeHead(contentType);
    if (payload === undefined) res.endWithoutBody(0, closeConnection);
    else res.end(payload, closeConnection);
  });
}
