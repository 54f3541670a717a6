/**
 * Whether bytes are a PNG, by what its first 33 bytes must be (PNG specification, ISO/IEC 15948):
 * the 8-byte signature, then the IHDR chunk (length 13, type `IHDR`, width and height of 1 to
 * 2^31−1, an allowed bit depth for the colour type, compression 0, filter 0, interlace 0 or 1)
 * with a correct CRC-32. The image data is not decoded: the browser draws it, and the bounded
 * dimensions keep what it must decode small (a 64 KiB PNG could otherwise claim 20 000² pixels).
 */
export type PngHeader = { ok: true; width: number; height: number } | { ok: false; reason: string };

/** The largest width or height an icon may have. */
export const MAX_ICON_DIMENSION = 1024;

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Allowed bit depths by colour type (grey, RGB, palette, grey + alpha, RGBA). */
const DEPTHS: Readonly<Record<number, readonly number[]>> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

export function readPngHeader(bytes: Uint8Array): PngHeader {
  if (bytes.length < SIGNATURE.length || SIGNATURE.some((b, i) => bytes[i] !== b)) return { ok: false, reason: 'it does not start with the PNG signature' };
  if (bytes.length < 33) return { ok: false, reason: 'it ends before its IHDR chunk' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = String.fromCharCode(...bytes.subarray(12, 16));
  if (view.getUint32(8) !== 13 || type !== 'IHDR') return { ok: false, reason: 'its first chunk is not an IHDR of 13 bytes' };
  if (view.getUint32(29) !== crc32(bytes.subarray(12, 29))) return { ok: false, reason: 'the CRC of its IHDR chunk is wrong' };
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  const [depth, colour, compression, filter, interlace] = bytes.subarray(24, 29);
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) return { ok: false, reason: 'its IHDR gives a width or height of 0 or above 2^31-1' };
  if (!DEPTHS[colour!]?.includes(depth!) || compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) {
    return { ok: false, reason: 'its IHDR names a colour type, bit depth, compression, filter or interlace method PNG does not have' };
  }
  if (width > MAX_ICON_DIMENSION || height > MAX_ICON_DIMENSION)
    return { ok: false, reason: `it is ${width}×${height} pixels; an icon is at most ${MAX_ICON_DIMENSION}×${MAX_ICON_DIMENSION}` };
  return { ok: true, width, height };
}

let table: Uint32Array | undefined;

/** CRC-32 as PNG computes it (ISO 3309, polynomial 0xEDB88320). */
export function crc32(bytes: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = table[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
