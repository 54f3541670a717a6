/**
 * The built-in CI type icons: one SVG file per catalogue entry and none left over, stable ids
 * below the uploads' range, and images that can do nothing but be drawn.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import t from 'tap';
import { BUILT_IN_ICONS, builtInIcon, FIRST_UPLOADED_ICON_ID } from '../../../../../../services/control-plane/cmdb/icons/built-in-icons.js';

const dir = new URL('../../../../../../services/control-plane/cmdb/icons/', import.meta.url);

t.test('one SVG per icon, and no SVG without an icon', async (t) => {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.svg'))
    .sort();
  t.same(BUILT_IN_ICONS.map((icon) => icon.file).sort(), files);
  t.ok(BUILT_IN_ICONS.length >= 12, `${BUILT_IN_ICONS.length} icons`);
});

t.test('stable ids: 1, 2, 3 … in order, below the first uploaded id; names unique', async (t) => {
  t.same(
    BUILT_IN_ICONS.map((icon) => icon.id),
    BUILT_IN_ICONS.map((_, i) => i + 1),
  );
  t.ok(BUILT_IN_ICONS.length < FIRST_UPLOADED_ICON_ID);
  t.equal(new Set(BUILT_IN_ICONS.map((icon) => icon.name)).size, BUILT_IN_ICONS.length);
  t.same(
    [builtInIcon(1)?.name, builtInIcon(2)?.name, builtInIcon(3)?.name, builtInIcon(0), builtInIcon(FIRST_UPLOADED_ICON_ID)],
    ['Generic', 'Server', 'Database', undefined, undefined],
  );
});

t.test('each SVG is well-formed, 24×24, small, and holds no script, event handler, link or foreign content', async (t) => {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });
  for (const icon of BUILT_IN_ICONS) {
    const text = readFileSync(new URL(icon.file, dir), 'utf8');
    t.equal(XMLValidator.validate(text), true, `${icon.file} is well-formed XML`);
    const svg = parser.parse(text).svg as Record<string, unknown>;
    t.match(svg, { xmlns: 'http://www.w3.org/2000/svg', viewBox: '0 0 24 24', width: '24', height: '24' }, icon.file);
    t.ok(text.length < 2048, `${icon.file}: ${text.length} bytes`);
    const elements = [...text.matchAll(/<([a-zA-Z][\w:-]*)/g)].map((m) => m[1]);
    t.same(
      elements.filter((name) => !['svg', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'g'].includes(name!)),
      [],
      `${icon.file}: shapes only`,
    );
    t.notMatch(text, /\son\w+\s*=|href|url\(|<!|javascript:/i, `${icon.file}: no handler, link, doctype or entity`);
  }
});
