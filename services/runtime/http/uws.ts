/**
 * uWebSockets.js, loaded after its header buffer is set. uWS reads UWS_HTTP_MAX_HEADERS_SIZE once,
 * when its binary loads, and answers a request whose header section is larger (or has more than
 * its 100 fields) with its own HTML 431 page before any handler runs. The buffer is set well
 * above the platform's own limit (MAX_HEADER_BYTES), so what lies between gets the platform's
 * problem+json 431; only a header section over the buffer still meets uWS's page.
 */
export const UWS_HEADER_BUFFER_BYTES = 128 * 1024;

/** The platform's limit on a request's header fields (names and values): a 431 problem above it. */
export const MAX_HEADER_BYTES = 16 * 1024;

process.env['UWS_HTTP_MAX_HEADERS_SIZE'] ??= String(UWS_HEADER_BUFFER_BYTES);
const uws = await import('uWebSockets.js');

export const { App, us_listen_socket_close, us_socket_local_port } = uws;
