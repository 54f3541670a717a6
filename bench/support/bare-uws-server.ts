/**
 * Benchmark child, the baseline: a bare uWebSockets.js GET route on the platform's CI path that
 * answers a fixed CI JSON — no authentication, no rights, no routing layer, no logging. The
 * body is the first line read from stdin (the orchestrator passes a real platform answer, so
 * both servers send the same shape and size). Prints `{"port":N}` on stdout once listening;
 * stops when stdin closes or on SIGTERM / SIGINT.
 */

import { App, type us_listen_socket, us_listen_socket_close, us_socket_local_port } from 'uWebSockets.js';
import { createInterface } from 'node:readline';

const CI_PATH = '/api/public/sm/v2/rsm/config-items/:id';

const lines = createInterface({ input: process.stdin });
const body = await new Promise<string>((resolve, reject) => {
  lines.once('line', resolve);
  lines.once('close', () => reject(new Error('stdin closed before the body line')));
});

const app = App().get(CI_PATH, (res) => {
  res.cork(() => {
    res.writeStatus('200 OK').writeHeader('content-type', 'application/json').end(body);
  });
});

const socket = await new Promise<us_listen_socket>((resolve, reject) => {
  app.listen('127.0.0.1', 0, (listen) => (listen ? resolve(listen) : reject(new Error('the baseline could not listen'))));
});

const stop = (): void => {
  us_listen_socket_close(socket);
  app.close();
  process.exit(0);
};
lines.once('close', stop);
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.stdout.write(`${JSON.stringify({ port: us_socket_local_port(socket) })}\n`);
