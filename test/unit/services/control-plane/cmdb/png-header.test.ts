/** An uploaded icon is a PNG by its signature and IHDR chunk (png-header.ts), one case per rule. */
import t from 'tap';
import { crc32, MAX_ICON_DIMENSION, readPngHeader } from '../../../../../services/control-plane/cmdb/png-header.js';
import { ihdr, PNG_SIGNATURE, png, pngChunk } from '../../../../support/png.js';

const withIhdr = (chunk: Buffer) => Buffer.concat([PNG_SIGNATURE, chunk]);

t.test('a PNG: its width and height', async (t) => {
  t.same(readPngHeader(png(32, 20)), { ok: true, width: 32, height: 20 });
  t.same(readPngHeader(new Uint8Array(png(1, 1))), { ok: true, width: 1, height: 1 }, 'any Uint8Array');
  t.same(readPngHeader(png(3, 3).subarray(0, 33)), { ok: true, width: 3, height: 3 }, 'only the first 33 bytes are read');
});

t.test('signature: the first 8 bytes must be the PNG signature', async (t) => {
  t.match(readPngHeader(Buffer.from('GIF89a')), { ok: false, reason: /PNG signature/ });
  t.match(readPngHeader(Buffer.alloc(0)), { ok: false, reason: /PNG signature/ });
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
  t.match(readPngHeader(jpeg), { ok: false, reason: /PNG signature/ });
});

t.test('IHDR present: the signature alone, or a chunk cut short, is refused', async (t) => {
  t.match(readPngHeader(PNG_SIGNATURE), { ok: false, reason: /ends before its IHDR/ });
  t.match(readPngHeader(png(4, 4).subarray(0, 32)), { ok: false, reason: /ends before its IHDR/ });
});

t.test('IHDR first: the first chunk must be IHDR of 13 bytes', async (t) => {
  t.match(readPngHeader(withIhdr(pngChunk('IDAT', Buffer.alloc(13)))), { ok: false, reason: /not an IHDR of 13 bytes/ });
  t.match(readPngHeader(withIhdr(pngChunk('IHDR', Buffer.alloc(14)))), { ok: false, reason: /not an IHDR of 13 bytes/ });
});

t.test('IHDR CRC: a chunk whose CRC does not match is refused', async (t) => {
  const chunk = ihdr(16, 16);
  chunk[chunk.length - 1]! ^= 0xff;
  t.match(readPngHeader(withIhdr(chunk)), { ok: false, reason: /CRC/ });
});

t.test('IHDR dimensions: 0 or above 2^31-1 is refused, and an icon is at most 1024×1024', async (t) => {
  t.match(readPngHeader(withIhdr(ihdr(0, 5))), { ok: false, reason: /width or height of 0/ });
  t.match(readPngHeader(withIhdr(ihdr(5, 0x80000000))), { ok: false, reason: /above 2\^31-1/ });
  t.equal(MAX_ICON_DIMENSION, 1024);
  t.same(readPngHeader(withIhdr(ihdr(1024, 1024))), { ok: true, width: 1024, height: 1024 });
  t.match(readPngHeader(withIhdr(ihdr(1025, 1))), { ok: false, reason: /1025×1 pixels; an icon is at most 1024×1024/ });
});

t.test('IHDR fields: colour type and bit depth PNG allows, compression 0, filter 0, interlace 0 or 1', async (t) => {
  const allowed: Array<[number, number]> = [
    [1, 0],
    [16, 0],
    [8, 2],
    [4, 3],
    [16, 4],
    [8, 6],
  ];
  for (const [depth, colour] of allowed) t.ok(readPngHeader(withIhdr(ihdr(2, 2, depth, colour))).ok, `depth ${depth}, colour type ${colour}`);
  for (const [depth, colour] of [
    [4, 2],
    [16, 3],
    [8, 1],
    [8, 7],
  ] as const) {
    t.match(readPngHeader(withIhdr(ihdr(2, 2, depth, colour))), { ok: false, reason: /colour type, bit depth/ }, `depth ${depth}, colour type ${colour}`);
  }
  const fields = (compression: number, filter: number, interlace: number) => {
    const data = Buffer.alloc(13);
    data.writeUInt32BE(2, 0);
    data.writeUInt32BE(2, 4);
    data.set([8, 6, compression, filter, interlace], 8);
    return withIhdr(pngChunk('IHDR', data));
  };
  t.ok(readPngHeader(fields(0, 0, 1)).ok, 'Adam7 interlace');
  for (const [c, f, i] of [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 2],
  ] as const) {
    t.notOk(readPngHeader(fields(c, f, i)).ok, `compression ${c}, filter ${f}, interlace ${i}`);
  }
});

t.test('crc32: the check value of ISO 3309', async (t) => {
  t.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  t.equal(crc32(new Uint8Array(0)), 0);
});
