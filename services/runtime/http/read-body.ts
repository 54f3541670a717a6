import type { HttpResponse } from 'uWebSockets.js';

/**
 * Collects a request body. uWS delivers it only to a reader attached in the request's own tick,
 * so reading starts at construction; `take` hands the body over once it is whole, or undefined
 * as soon as it passes the limit. (A class: closures per request showed in the ingestion profile.)
 */
export class BodyReader {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private outcome: { body: Buffer | undefined } | undefined;
  private waiting: ((body: Buffer | undefined) => void) | undefined;

  constructor(
    res: HttpResponse,
    private readonly limit: number,
  ) {
    res.onData((chunk, isLast) => this.onChunk(chunk, isLast));
  }

  take(done: (body: Buffer | undefined) => void): void {
    if (this.outcome) done(this.outcome.body);
    else this.waiting = done;
  }

  complete(): boolean {
    return this.outcome !== undefined;
  }

  private onChunk(chunk: ArrayBuffer, isLast: boolean): void {
    if (this.outcome) return;
    this.size += chunk.byteLength;
    if (this.size > this.limit) {
      this.settle(undefined);
      return;
    }
    // uWS reuses the chunk's memory after this callback: copy it.
    this.chunks.push(Buffer.from(new Uint8Array(chunk)));
    if (isLast) this.settle(this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size));
  }

  private settle(body: Buffer | undefined): void {
    this.outcome = { body };
    this.waiting?.(body);
  }
}
