/**
 * CI type icons (spec 2.13 icon object; docs/decisions.md "CI type icons"): the built-in SVG
 * set, PNG uploads (at most 64 KiB, checked by signature and IHDR), an icon set on a CI type and
 * read back through the admin API, #1 and the CI model, and the public image behind `iconUrl`.
 */
import { rmSync } from 'node:fs';
import t from 'tap';
import { call } from '../../support/http.js';
import { ADMIN_TOKEN } from '../../support/platform.js';
import { ihdr, PNG_SIGNATURE, png, pngChunk } from '../../support/png.js';
import { ADMIN_API, isProblem, Kit, keys, RSM } from './cmdb-kit.js';

const ICONS = `${ADMIN_API}/config-item-type-icons`;
const TYPES = `${ADMIN_API}/config-item-types`;
const ICON_URL = /^\/api\/public\/sm\/v2\/rsm\/config-item-type-icons\/\d+$/;
const SANDBOX = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const k = new Kit();
t.before(() => k.start());
t.teardown(() => k.stop());

/** Uploads `bytes` as the admin (content type image/png unless told). */
const upload = (bytes: Buffer, query = `name=${k.uniq('icon')}`, contentType = 'image/png') =>
  call(k.p.base, 'POST', `${ICONS}?${query}`, { body: bytes, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': contentType } });

async function uploaded(bytes = png(), query?: string): Promise<{ id: number; name: string; iconUrl: string }> {
  const answer = await upload(bytes, query);
  if (answer.status !== 201) throw new Error(`upload: ${answer.status} ${answer.text}`);
  return answer.body;
}

/** The image at an iconUrl, fetched without a token, as an <img> of any page would. */
async function image(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(k.p.base + url, { headers });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

const createType = (json: Record<string, unknown>) => k.api('POST', TYPES, { json: { name: k.uniq('type'), ...json } });

t.test('built-in list: the built-in SVG icons, with stable ids below 1000, then the uploaded ones', async (t) => {
  const answer = await k.api('GET', ICONS);
  t.equal(answer.status, 200);
  const builtIn = answer.body.filter((icon: { builtIn: boolean }) => icon.builtIn);
  t.ok(builtIn.length >= 12, `${builtIn.length} built-in icons`);
  t.same(
    builtIn.slice(0, 4).map((icon: { id: number; name: string }) => [icon.id, icon.name]),
    [
      [1, 'Generic'],
      [2, 'Server'],
      [3, 'Database'],
      [4, 'Network'],
    ],
    'ids are stable',
  );
  for (const icon of builtIn) {
    t.same(keys(icon), ['builtIn', 'bytes', 'contentType', 'fileName', 'iconUrl', 'id', 'name', 'userspaceId'], `${icon.name}: the icon object and what the image is`);
    t.match(icon, { fileName: null, userspaceId: 1, contentType: 'image/svg+xml', iconUrl: `/api/public/sm/v2/rsm/config-item-type-icons/${icon.id}` });
    t.ok(icon.id < 1000 && icon.bytes > 0);
  }
  t.same(
    answer.body.map((icon: { id: number }) => icon.id),
    [...answer.body.map((icon: { id: number }) => icon.id)].sort((a, b) => a - b),
    'by id',
  );
});

t.test('upload ok: a PNG becomes an icon with its name, file name and iconUrl (201)', async (t) => {
  const bytes = png(32, 32);
  const answer = await upload(bytes, 'name=Mainframe&fileName=mainframe.png');
  t.equal(answer.status, 201, answer.text);
  t.match(answer.body, { name: 'Mainframe', fileName: 'mainframe.png', userspaceId: 1, builtIn: false, contentType: 'image/png', bytes: bytes.length, iconUrl: ICON_URL });
  t.ok(answer.body.id >= 1000, 'uploads are numbered after the built-in range');
  const listed = (await k.api('GET', ICONS)).body.find((icon: { id: number }) => icon.id === answer.body.id);
  t.same(listed, answer.body);
  const noFileName = await uploaded(png(), 'name=Plain');
  t.equal((noFileName as unknown as { fileName: unknown }).fileName, null, 'fileName null when not given');
});

t.test('upload ok at exactly 64 KiB; upload too large 413 above it', async (t) => {
  const base = png(4, 4).length;
  // The padding chunk adds 12 bytes of framing to its data.
  const exact = png(4, 4, { padding: 64 * 1024 - base - 12 });
  t.equal(exact.length, 64 * 1024);
  t.equal((await upload(exact)).status, 201, 'at the limit: taken');
  const over = png(4, 4, { padding: 64 * 1024 - base - 11 });
  const refused = await upload(over);
  isProblem(t, refused, 413, 'payload-too-large', /limit is 65536/);
  t.equal(refused.body.code, 'http.body_too_large_declared');
});

t.test('upload not PNG 400 icon.not_png: by its signature, and by its IHDR chunk', async (t) => {
  const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
  const cases: Array<[string, Buffer, RegExp]> = [
    ['a GIF', gif, /PNG signature/],
    ['an empty body', Buffer.alloc(0), /PNG signature/],
    ['the signature alone', PNG_SIGNATURE, /ends before its IHDR/],
    ['a first chunk other than IHDR', Buffer.concat([PNG_SIGNATURE, pngChunk('IDAT', Buffer.alloc(13))]), /not an IHDR/],
    ['an IHDR with a wrong CRC', Buffer.concat([PNG_SIGNATURE, ihdr(16, 16).map((b, i) => (i === 24 ? b ^ 1 : b))]), /CRC/],
    ['a width of 0', Buffer.concat([PNG_SIGNATURE, ihdr(0, 16)]), /width or height of 0/],
    ['a bit depth RGBA does not have', Buffer.concat([PNG_SIGNATURE, ihdr(16, 16, 4, 6)]), /colour type, bit depth/],
    ['20 000 pixels wide', Buffer.concat([PNG_SIGNATURE, ihdr(20_000, 1)]), /at most 1024×1024/],
  ];
  for (const [what, bytes, reason] of cases) {
    const answer = await upload(bytes);
    isProblem(t, answer, 400, 'bad-request', reason);
    t.equal(answer.body.code, 'icon.not_png', what);
  }
});

t.test('upload 415: only image/png is taken', async (t) => {
  const answer = await upload(png(), 'name=x', 'image/svg+xml');
  isProblem(t, answer, 415, 'unsupported-media-type', /image\/png/);
  t.equal(answer.body.code, 'http.content_type_unsupported');
});

t.test('upload 400: the name is required, and a file name holds no path', async (t) => {
  isProblem(t, await upload(png(), ''), 400, 'validation', undefined, '/name');
  isProblem(t, await upload(png(), 'name=x&fileName=..%2Fetc%2Fpasswd'), 400, 'validation', undefined, '/fileName');
});

t.test('set on a CI type: by icon id on create and on update, null removes it; the admin list and #1 with includeIcon show it', async (t) => {
  const mine = await uploaded(png(), 'name=Rack&fileName=rack.png');
  const created = await createType({ description: 'Racks', iconId: 3 });
  t.equal(created.status, 201, created.text);
  t.same(created.body.icon, { id: 3, name: 'Database', fileName: null, userspaceId: 1, iconUrl: '/api/public/sm/v2/rsm/config-item-type-icons/3' });
  const changed = await k.api('PATCH', `${TYPES}/${created.body.id}`, { json: { iconId: mine.id } });
  t.equal(changed.status, 200, changed.text);
  t.same(changed.body.icon, { id: mine.id, name: 'Rack', fileName: 'rack.png', userspaceId: 1, iconUrl: mine.iconUrl });
  const renamed = await k.api('PATCH', `${TYPES}/${created.body.id}`, { json: { name: k.uniq('racks') } });
  t.equal(renamed.body.icon?.id, mine.id, 'an update without iconId keeps the icon');
  const admin = (await k.api('GET', TYPES)).body.find((x: { id: number }) => x.id === created.body.id);
  t.same(admin.icon, changed.body.icon, 'the admin list');
  const withIcon = await k.api('GET', `${RSM}/config-item-types?includeIcon=true`);
  t.same(
    withIcon.body.find((x: { id: number }) => x.id === created.body.id),
    { id: created.body.id, name: renamed.body.name, description: 'Racks', icon: changed.body.icon },
    '#1 with includeIcon',
  );
  t.equal(withIcon.body.find((x: { id: number }) => x.id === k.defaultType.id).icon, null, 'a type without icon: null');
  const plain = await k.api('GET', `${RSM}/config-item-types`);
  t.ok(
    plain.body.every((x: object) => keys(x).join() === 'description,id,name'),
    '#1 without includeIcon: exactly the spec 2.1 fields',
  );
  const removed = await k.api('PATCH', `${TYPES}/${created.body.id}`, { json: { iconId: null } });
  t.equal(removed.body.icon, null, 'iconId null removes it');
  t.equal((await createType({})).body.icon, null, 'a type created without iconId has none');
});

t.test('an unknown icon id on assignment: 400 icon.unknown, on create and on update', async (t) => {
  const created = await createType({ iconId: 999 });
  isProblem(t, created, 400, 'bad-request', /Icon not found: 999/, '/iconId');
  t.equal(created.body.code, 'icon.unknown');
  const type = await k.ciType();
  const patched = await k.api('PATCH', `${TYPES}/${type.id}`, { json: { iconId: 987_654 } });
  isProblem(t, patched, 400, 'bad-request', /Icon not found: 987654/, '/iconId');
});

t.test('CI model: configItemType carries the icon object with iconUrl when includeIcon=true (#12)', async (t) => {
  const type = (await createType({ description: 'Hosts', iconId: 2 })).body;
  const wg = await k.workGroup();
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id }, configItemType: { id: type.id } });
  t.same(ci.configItemType, { id: type.id, name: type.name, description: 'Hosts' }, 'by default exactly the spec 2.3 fields');
  const read = await k.get(ci.id, undefined, '?includeIcon=true');
  t.equal(read.status, 200);
  t.same(read.body.configItemType, {
    id: type.id,
    name: type.name,
    description: 'Hosts',
    icon: { id: 2, name: 'Server', fileName: null, userspaceId: 1, iconUrl: '/api/public/sm/v2/rsm/config-item-type-icons/2' },
  });
  const plainCi = await k.ci({ ownerWorkGroup: { id: wg.id } });
  t.equal((await k.get(plainCi.id, undefined, '?includeIcon=true')).body.configItemType.icon, null, 'the default type has none');
  const loaded = await image(read.body.configItemType.icon.iconUrl);
  t.equal(loaded.status, 200, 'the iconUrl loads');
});

t.test('GET iconUrl: a built-in SVG with its content type, nosniff, a sandboxing CSP and a cache, without a token', async (t) => {
  const svg = await image('/api/public/sm/v2/rsm/config-item-type-icons/3');
  t.equal(svg.status, 200);
  t.equal(svg.headers.get('content-type'), 'image/svg+xml');
  t.equal(svg.headers.get('x-content-type-options'), 'nosniff');
  t.equal(svg.headers.get('content-security-policy'), SANDBOX);
  t.equal(svg.headers.get('cache-control'), 'public, max-age=86400');
  t.match(svg.bytes.toString('utf8'), /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* viewBox="0 0 24 24"/);
  t.notMatch(svg.bytes.toString('utf8'), /<script|\son\w+=/i);
  const listed = (await k.api('GET', ICONS)).body.find((icon: { id: number }) => icon.id === 3);
  t.equal(svg.bytes.length, listed.bytes, 'the size listed');
});

t.test('GET iconUrl: an uploaded PNG, its bytes as sent, cached for good; If-None-Match answers 304', async (t) => {
  const bytes = png(24, 24, { rgba: [200, 30, 30, 255] });
  const icon = await uploaded(bytes);
  const got = await image(icon.iconUrl);
  t.equal(got.status, 200);
  t.equal(got.headers.get('content-type'), 'image/png');
  t.ok(got.bytes.equals(bytes), 'the bytes uploaded');
  t.equal(got.headers.get('x-content-type-options'), 'nosniff');
  t.equal(got.headers.get('content-security-policy'), SANDBOX);
  t.equal(got.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const etag = got.headers.get('etag')!;
  t.match(etag, /^"[A-Za-z0-9_-]{22}"$/);
  const again = await image(icon.iconUrl, { 'if-none-match': etag });
  t.equal(again.status, 304);
  t.equal(again.bytes.length, 0);
  t.equal((await image(icon.iconUrl, { 'if-none-match': '"other"' })).status, 200);
  const head = await fetch(k.p.base + icon.iconUrl, { method: 'HEAD' });
  t.equal(head.status, 200);
  t.equal(head.headers.get('content-length'), String(bytes.length), 'HEAD: the length, no body');
});

t.test('GET iconUrl of an unknown icon: 404 icon.not_found; of a malformed id: 400', async (t) => {
  const missing = await call(k.p.base, 'GET', '/api/public/sm/v2/rsm/config-item-type-icons/999');
  isProblem(t, missing, 404, 'not-found', /Icon 999 not found/);
  t.equal(missing.body.code, 'icon.not_found');
  isProblem(t, await call(k.p.base, 'GET', '/api/public/sm/v2/rsm/config-item-type-icons/abc'), 400, 'bad-request');
});

t.test('delete: an icon in use 409 icon.in_use, a built-in one 409 icon.built_in, an unknown one 404; a deleted icon is gone (404, and 400 on assignment)', async (t) => {
  const icon = await uploaded();
  const type = (await createType({ iconId: icon.id })).body;
  const inUse = await k.api('DELETE', `${ICONS}/${icon.id}`);
  isProblem(t, inUse, 409, 'conflict', new RegExp(`CI type ${type.id} has icon ${icon.id}`));
  t.equal(inUse.body.code, 'icon.in_use');
  const builtIn = await k.api('DELETE', `${ICONS}/1`);
  isProblem(t, builtIn, 409, 'conflict', /built in/);
  t.equal(builtIn.body.code, 'icon.built_in');
  isProblem(t, await k.api('DELETE', `${ICONS}/424242`), 404, 'not-found', /Icon 424242 not found/);

  t.equal((await k.api('PATCH', `${TYPES}/${type.id}`, { json: { iconId: null } })).status, 200);
  t.equal((await k.api('DELETE', `${ICONS}/${icon.id}`)).status, 204);
  t.equal((await image(icon.iconUrl)).status, 404, 'its iconUrl answers 404');
  t.notOk(
    (await k.api('GET', ICONS)).body.some((x: { id: number }) => x.id === icon.id),
    'no longer listed',
  );
  isProblem(t, await k.api('PATCH', `${TYPES}/${type.id}`, { json: { iconId: icon.id } }), 400, 'bad-request', /Icon not found/, '/iconId');
});

t.test('admin only: a user who is not an admin may not list, upload or delete icons (403)', async (t) => {
  const user = await k.user();
  t.equal((await k.api('GET', ICONS, { token: user.token })).status, 403);
  const answer = await call(k.p.base, 'POST', `${ICONS}?name=x`, { body: png(), headers: { authorization: `Bearer ${user.token}`, 'content-type': 'image/png' } });
  t.equal(answer.status, 403);
  t.equal((await k.api('DELETE', `${ICONS}/1`, { token: user.token })).status, 403);
});

t.test('stored durably: an uploaded icon and a type’s icon survive a restart', async (t) => {
  const bytes = png(8, 8);
  const icon = await uploaded(bytes);
  const type = (await createType({ iconId: icon.id })).body;
  const dataDir = k.p.dataDir;
  await k.p.stop(false);
  await k.start(dataDir);
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const admin = (await k.api('GET', TYPES)).body.find((x: { id: number }) => x.id === type.id);
  t.equal(admin.icon.id, icon.id);
  t.ok((await image(icon.iconUrl)).bytes.equals(bytes));
});

t.test('icon.limit_reached: at most 200 uploaded icons (409)', async (t) => {
  const have = (await k.api('GET', ICONS)).body.filter((icon: { builtIn: boolean }) => !icon.builtIn).length;
  const small = png(1, 1);
  for (let i = have; i < 200; i++) await uploaded(small);
  const refused = await upload(small);
  isProblem(t, refused, 409, 'conflict', /At most 200 icons/);
  t.equal(refused.body.code, 'icon.limit_reached');
});
