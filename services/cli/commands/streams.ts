/** `ops streams …`: data streams, their keys, status and processing configuration (admin API /streams). */
import { done, list, one } from '../render.js';
import { type CommandInput, type CommandSpec, defined, flag, type NounSpec, type OptionSpec, type PrepareDeps, seg, send, str, usage } from '../spec.js';

const STREAM_ID = { name: 'id', description: 'The stream id', kind: 'id' as const };

const CONFIG_OPTIONS: Record<string, OptionSpec> = {
  config: {
    type: 'string',
    value: 'json',
    description:
      'Processing configuration as JSON, e.g. \'{"parser":{"type":"xml"},"routeLabel":"net"}\' (keys: parser, preprocessor, routeLabel; parser types: text, xml and the presets collectd, influx, graphite, syslog, logfmt)',
  },
  'config-file': { type: 'string', value: 'path', description: 'Read the processing configuration from this JSON file' },
};

type ConfigResult = { ok: true; config: Record<string, unknown> | undefined } | { ok: false; usage: string };

/** The configuration object from --config or --config-file (args.ts makes them exclusive). */
export async function readConfig(input: CommandInput, deps: PrepareDeps): Promise<ConfigResult> {
  const inline = str(input, 'config');
  const path = str(input, 'config-file');
  let text: string;
  let source: string;
  if (inline !== undefined) {
    text = inline;
    source = '--config';
  } else if (path !== undefined) {
    source = `--config-file ${path}`;
    try {
      text = await deps.readFile(path);
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { ok: false, usage: `cannot read ${source}${code ? ` (${code})` : ''}` };
    }
  } else {
    return { ok: true, config: undefined };
  }
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    return { ok: false, usage: `${source} is not valid JSON: ${(error as Error).message}` };
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return { ok: false, usage: `${source} must be a JSON object` };
  return { ok: true, config: config as Record<string, unknown> };
}

const transition = (verb: string, summary: string): CommandSpec => ({
  verb,
  summary,
  args: [STREAM_ID],
  prepare: (i) => send('POST', `/streams/${seg(i.args['id']!)}/${verb}`),
  render: one(),
});

export const streams: NounSpec = {
  name: 'streams',
  summary: 'Data streams, their keys and processing configuration',
  commands: [
    {
      verb: 'list',
      summary: 'List streams (keys with "get" or --json)',
      prepare: () => send('GET', '/streams'),
      render: list({ ID: 'id', NAME: 'name', STATUS: 'status', UPDATED: 'updatedAt' }),
    },
    { verb: 'get', summary: 'Show one stream with its key and configuration', args: [STREAM_ID], prepare: (i) => send('GET', `/streams/${seg(i.args['id']!)}`), render: one() },
    {
      verb: 'create',
      summary: 'Create a stream; its key is generated and shown',
      options: {
        name: { type: 'string', value: 'name', required: true, description: "The stream's name" },
        inactive: { type: 'boolean', description: 'Create it inactive (its key answers 422 until activated)' },
        ...CONFIG_OPTIONS,
      },
      exclusive: [['config', 'config-file']],
      prepare: async (i, deps) => {
        const config = await readConfig(i, deps);
        if (!config.ok) return usage(config.usage);
        return send('POST', '/streams', defined({ name: str(i, 'name'), status: flag(i, 'inactive') ? 'inactive' : undefined, config: config.config }));
      },
      render: one(),
    },
    {
      verb: 'update',
      summary: 'Rename a stream or replace its processing configuration',
      args: [STREAM_ID],
      options: { name: { type: 'string', value: 'name', description: 'The new name' }, ...CONFIG_OPTIONS },
      exclusive: [['config', 'config-file']],
      atLeastOne: ['name', 'config', 'config-file'],
      prepare: async (i, deps) => {
        const config = await readConfig(i, deps);
        if (!config.ok) return usage(config.usage);
        return send('PATCH', `/streams/${seg(i.args['id']!)}`, defined({ name: str(i, 'name'), config: config.config }));
      },
      render: one(),
    },
    transition('rotate-key', 'Replace the stream key; the old key stops working at once'),
    transition('activate', 'Activate a stream'),
    transition('deactivate', 'Deactivate a stream (its key answers 422)'),
    transition('mark-for-deletion', 'Mark a stream for deletion (its key answers 422)'),
    {
      verb: 'delete',
      summary: 'Delete a stream (its key becomes unknown)',
      args: [STREAM_ID],
      prepare: (i) => send('DELETE', `/streams/${seg(i.args['id']!)}`),
      render: done((i) => `Deleted stream ${i.args['id']}.`),
    },
  ],
};
