/** `ops ci-type-icons …`: the icons a CI type may have, built-in SVGs and uploaded PNGs (admin API /config-item-type-icons). */
import { basename } from 'node:path';
import { done, list, one } from '../render.js';
import { type NounSpec, seg, send, str, usage } from '../spec.js';

export const ciTypeIcons: NounSpec = {
  name: 'ci-type-icons',
  summary: 'Icons for CI types: the built-in set and uploaded PNGs',
  commands: [
    {
      verb: 'list',
      summary: 'List the icons: built-in (ids below 1000), then uploaded',
      prepare: () => send('GET', '/config-item-type-icons'),
      render: list({ ID: 'id', NAME: 'name', BUILT_IN: 'builtIn', TYPE: 'contentType', BYTES: 'bytes', FILE: 'fileName', URL: 'iconUrl' }),
    },
    {
      verb: 'upload',
      summary: 'Upload a PNG (at most 64 KiB and 1024×1024 pixels) as an icon',
      options: {
        file: { type: 'string', value: 'path', required: true, description: 'The PNG file; its name is kept as fileName' },
        name: { type: 'string', value: 'name', description: "The icon's name (default: the file's name without .png)" },
      },
      prepare: async (i, deps) => {
        const path = str(i, 'file')!;
        if (!deps.readBytes) return usage('this CLI cannot read files');
        let bytes: Uint8Array;
        try {
          bytes = await deps.readBytes(path);
        } catch (error) {
          const code = (error as { code?: string }).code;
          return usage(`cannot read --file ${path}${code ? ` (${code})` : ''}`);
        }
        const fileName = basename(path);
        const name = str(i, 'name') ?? fileName.replace(/\.png$/i, '');
        const query = new URLSearchParams({ name, fileName }).toString();
        return { ok: true, request: { method: 'POST', path: `/config-item-type-icons?${query}`, raw: { contentType: 'image/png', bytes } } };
      },
      render: one(),
    },
    {
      verb: 'delete',
      summary: 'Delete an uploaded icon no CI type has',
      args: [{ name: 'id', description: 'The icon id', kind: 'id' }],
      prepare: (i) => send('DELETE', `/config-item-type-icons/${seg(i.args['id']!)}`),
      render: done((i) => `Deleted icon ${i.args['id']}.`),
    },
  ],
};
