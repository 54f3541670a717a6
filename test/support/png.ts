/**
 * Small PNG files for tests, built by the PNG specification with node:zlib (its deflate and
 * CRC-32), independently of the platform's own check (png-header.ts).
 */
import { crc32, deflateSync } from 'node:zlib';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export function ihdr(width: number, height: number, depth = 8, colourType = 6): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data.set([depth, colourType, 0, 0, 0], 8);
  return pngChunk('IHDR', data);
}

/**
 * A width × height RGBA PNG of one colour; `padding` bytes of a private ancillary chunk make it
 * as large as a test needs.
 */
export function png(width = 16, height = 16, options: { rgba?: [number, number, number, number]; padding?: number } = {}): Buffer {
  const [r, g, b, a] = options.rgba ?? [40, 120, 200, 255];
  const row = Buffer.alloc(1 + width * 4);
  for (let x = 0; x < width; x++) row.set([r, g, b, a], 1 + x * 4);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const chunks = [ihdr(width, height), pngChunk('IDAT', deflateSync(raw))];
  if (options.padding) chunks.push(pngChunk('prVt', Buffer.alloc(options.padding)));
  return Buffer.concat([PNG_SIGNATURE, ...chunks, pngChunk('IEND', Buffer.alloc(0))]);
}
