/** Streams for the ingest tests: one created through the admin API, and the ways to send its key. */
import type { TestPlatform } from './platform.js';

export interface StreamInfo {
  id: number;
  key: string;
}

export async function createStream(p: TestPlatform, name: string, config?: unknown): Promise<StreamInfo> {
  const created = await p.api('POST', '/api/admin/v1/streams', { json: { name, ...(config === undefined ? {} : { config }) } });
  if (created.status !== 201) throw new Error(`stream not created: ${created.status} ${created.text}`);
  return { id: created.body.id, key: created.body.key };
}

/** Where a request carries the stream key: the query, the header, or the Basic password. */
export type KeyVia = 'query' | 'header' | 'basic';

/** The query string and headers that send `key` (nothing when it is undefined). */
export function sendKey(key: string | undefined, via: KeyVia = 'query', user = 'shipper'): { query: string; headers: Record<string, string> } {
  if (key === undefined) return { query: '', headers: {} };
  if (via === 'query') return { query: `?streamKey=${encodeURIComponent(key)}`, headers: {} };
  if (via === 'header') return { query: '', headers: { 'x-smon-stream-key': key } };
  return { query: '', headers: { authorization: `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}` } };
}
