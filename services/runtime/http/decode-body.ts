/**
 * Request bodies sent compressed (Content-Encoding, RFC 9110 §8.4): gzip and deflate are decoded
 * off the main thread (zlib's thread pool), and the body limit applies to the decoded size, so a
 * small body that inflates past it (a zip bomb) is a 413, stopped as soon as it passes. Any other
 * encoding is a 415: a body we cannot read must not be taken as text.
 */

import { promisify } from 'node:util';
import { gunzip, inflate, inflateRaw, type ZlibOptions } from 'node:zlib';
import { fail } from '../../../schemas/errors.js';

export type BodyEncoding = 'identity' | 'gzip' | 'deflate';

const ENCODINGS: Record<string, BodyEncoding> = { '': 'identity', identity: 'identity', gzip: 'gzip', 'x-gzip': 'gzip', deflate: 'deflate' };

/** The encoding a Content-Encoding header names, or a 415 for one this server cannot decode. */
export function bodyEncodingOf(header: string | undefined): BodyEncoding {
  const name = (header ?? '').trim().toLowerCase();
  const encoding = ENCODINGS[name];
  if (!encoding) throw fail('http.encoding_unsupported', { encoding: JSON.stringify(header) });
  return encoding;
}

const gunzipAsync = promisify<Buffer, ZlibOptions, Buffer>(gunzip);
const inflateAsync = promisify<Buffer, ZlibOptions, Buffer>(inflate);
const inflateRawAsync = promisify<Buffer, ZlibOptions, Buffer>(inflateRaw);

const codeOf = (error: unknown): string | undefined => (error as { code?: string }).code;

export async function decodeBody(body: Buffer, encoding: BodyEncoding, limit: number): Promise<Buffer> {
  if (encoding === 'identity' || body.length === 0) return body;
  const options: ZlibOptions = { maxOutputLength: limit };
  try {
    if (encoding === 'gzip') return await gunzipAsync(body, options);
    // HTTP's deflate is the zlib format; some clients send the raw deflate stream instead.
    return await inflateAsync(body, options).catch((error: unknown) => {
      if (codeOf(error) === 'Z_DATA_ERROR') return inflateRawAsync(body, options);
      throw error;
    });
  } catch (error) {
    if (codeOf(error) === 'ERR_BUFFER_TOO_LARGE') throw fail('http.body_too_large_decoded', { limit, encoding });
    throw fail('http.body_not_decodable', { encoding, reason: (error as Error).message });
  }
}
