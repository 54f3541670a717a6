/** `ops triggers …`: synthetic triggers that turn stream records into problems on CIs (admin API /triggers). */

import { readBody } from '../body-input.js';
import { done, one } from '../render.js';
import { type NounSpec, type OptionSpec, type Render, seg, send, str, usage } from '../spec.js';
import { isRecord, table } from '../table.js';

const TRIGGER_ID = { name: 'id', description: 'The trigger id', kind: 'id' as const };

/**
 * `--json` is taken: it is the global "print the answer as JSON" flag. So the body comes with
 * --body (inline) or --file (a path), as a stream's configuration comes with --config/--config-file.
 */
const BODY_OPTIONS: Record<string, OptionSpec> = {
  body: { type: 'string', value: 'json', description: 'The trigger as JSON (the admin API body; see /api/openapi.json, admin.createTrigger)' },
  file: { type: 'string', value: 'path', description: 'Read the trigger JSON from this file' },
};

/** How a trigger finds its CI, in a few words: `id from host.id`, `name from host (type 3)`, `CI 12`. */
export function ciRuleText(ci: unknown): string {
  if (!isRecord(ci)) return '-';
  if (ci['by'] === 'fixed') return `CI ${String(ci['id'])}`;
  if (ci['by'] === 'idField') return `id from ${String(ci['field'])}`;
  if (ci['by'] === 'nameField') return `name from ${String(ci['field'])}${ci['ciTypeId'] === undefined ? '' : ` (type ${String(ci['ciTypeId'])})`}`;
  return '-';
}

/** The priority rule in a few words: `2`, or `from severity (default 3)`. */
export function priorityText(priority: unknown): string {
  if (!isRecord(priority)) return '-';
  if (priority['value'] !== undefined) return String(priority['value']);
  if (priority['field'] !== undefined) return `from ${String(priority['field'])} (default ${String(priority['default'])})`;
  return '-';
}

const renderList: Render = (data, input) => {
  if (!Array.isArray(data)) return one()(data, input);
  const rows = data.map((t) =>
    isRecord(t) ? { id: t['id'], name: t['name'], enabled: t['enabled'], streams: t['streamIds'], ci: ciRuleText(t['ci']), priority: priorityText(t['priority']) } : {},
  );
  return table(rows, { ID: 'id', NAME: 'name', ENABLED: 'enabled', STREAMS: 'streams', 'CI RULE': 'ci', PRIORITY: 'priority' });
};

export const triggers: NounSpec = {
  name: 'triggers',
  summary: 'Synthetic triggers: which stream records open and resolve problems on which CI',
  commands: [
    {
      verb: 'list',
      summary: 'List triggers (full definitions with "get" or --json)',
      options: { stream: { type: 'string', value: 'id', kind: 'id', description: 'Only the triggers listening to this stream' } },
      prepare: (i) => {
        const stream = str(i, 'stream');
        return send('GET', stream === undefined ? '/triggers' : `/triggers?streamId=${seg(stream)}`);
      },
      render: renderList,
    },
    { verb: 'get', summary: 'Show one trigger', args: [TRIGGER_ID], prepare: (i) => send('GET', `/triggers/${seg(i.args['id']!)}`), render: one() },
    {
      verb: 'create',
      summary: 'Create a trigger from its JSON definition',
      options: BODY_OPTIONS,
      exclusive: [['body', 'file']],
      atLeastOne: ['body', 'file'],
      prepare: async (i, deps) => {
        const body = await readBody(i, deps);
        return body.ok ? send('POST', '/triggers', body.body) : usage(body.usage);
      },
      render: one(),
    },
    {
      verb: 'update',
      summary: 'Replace top-level fields of a trigger (e.g. --body \'{"enabled":false}\')',
      args: [TRIGGER_ID],
      options: BODY_OPTIONS,
      exclusive: [['body', 'file']],
      atLeastOne: ['body', 'file'],
      prepare: async (i, deps) => {
        const body = await readBody(i, deps);
        return body.ok ? send('PATCH', `/triggers/${seg(i.args['id']!)}`, body.body) : usage(body.usage);
      },
      render: one(),
    },
    {
      verb: 'delete',
      summary: 'Delete a trigger',
      args: [TRIGGER_ID],
      prepare: (i) => send('DELETE', `/triggers/${seg(i.args['id']!)}`),
      render: done((i) => `Deleted trigger ${i.args['id']}.`),
    },
  ],
};
