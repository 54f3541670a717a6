/**
 * JSON export of an SLA report (spec 2.13, 2.14, 2.16): the stored rows as one JSON array, written
 * element by element — `[`, the rows joined by `,`, `]` — and handed on in chunks of about
 * `chunkChars` characters so a large report is neither held whole nor written in tiny pieces.
 */
export function jsonExport<R>(rows: AsyncIterable<R>, options: { chunkChars?: number } = {}): AsyncIterable<string> {
  const chunkChars = options.chunkChars ?? 16_384;
  return (async function* json() {
    let chunk = '[';
    let first = true;
    for await (const row of rows) {
      chunk += (first ? '' : ',') + JSON.stringify(row);
      first = false;
      if (chunk.length >= chunkChars) {
        yield chunk;
        chunk = '';
      }
    }
    yield `${chunk}]`;
  })();
}
