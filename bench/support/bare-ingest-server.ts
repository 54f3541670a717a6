/**
 * The ceiling of the ingestion benchmark: a bare uWebSockets.js route that reads the body,
 * parses it as JSON (NDJSON: every line) and answers 200. Prints {"port":N} once listening.
 */
import { App, us_socket_local_port } from 'uWebSockets.js';

App()
  .post('/*', (res, req) => {
    const ndjson = req.getHeader('content-type').startsWith('application/x-ndjson');
    const chunks: Buffer[] = [];
    let aborted = false;
    res.onAborted(() => (aborted = true));
    res.onData((chunk, last) => {
      chunks.push(Buffer.from(new Uint8Array(chunk)));
      if (!last) return;
      const text = Buffer.concat(chunks).toString('utf8');
      let accepted = 0;
      let ok = true;
      try {
        if (ndjson) {
          for (const line of text.split('\n'))
            if (line.trim() !== '') {
              JSON.parse(line);
              accepted++;
            }
        } else {
          JSON.parse(text);
          accepted = 1;
        }
      } catch {
        ok = false;
      }
      if (aborted) return;
      res.cork(() =>
        res
          .writeStatus(ok ? '200 OK' : '400 Bad Request')
          .writeHeader('content-type', 'application/json')
          .end(`{"accepted":${accepted}}`),
      );
    });
  })
  .listen('127.0.0.1', 0, (socket) => {
    if (!socket) throw new Error('cannot listen');
    process.stdout.write(`${JSON.stringify({ port: us_socket_local_port(socket as never) })}\n`);
  });
