/**
 * `ops sla-templates …`: SLA templates (admin API /sla/templates). Bodies are JSON, given inline
 * with --body or read from a file with --file (`--json` is the global output flag).
 */

import { readBody } from '../body-input.js';
import { done, list, one } from '../render.js';
import { type CommandInput, type NounSpec, type OptionSpec, type PrepareDeps, seg, send, usage } from '../spec.js';

const TEMPLATE_ID = { name: 'id', description: 'The SLA template id', kind: 'id' as const };
const PATH = '/sla/templates';

const BODY_OPTIONS: Record<string, OptionSpec> = {
  body: {
    type: 'string',
    value: 'json',
    description: 'The template as JSON, e.g. \'{"type":"Single","name":"Core","period":"ThisMonth","ownerType":"WorkGroup","workGroupId":1,"configItems":[{"id":7}]}\'',
  },
  file: { type: 'string', value: 'path', description: 'Read the template JSON from this file' },
};

const withBody = (method: 'POST' | 'PATCH', path: (i: CommandInput) => string) => async (i: CommandInput, deps: PrepareDeps) => {
  const body = await readBody(i, deps);
  return body.ok ? send(method, path(i), body.body) : usage(body.usage);
};

export const slaTemplates: NounSpec = {
  name: 'sla-templates',
  summary: 'SLA templates: CIs and weights, priorities, working calendar, owner',
  commands: [
    {
      verb: 'list',
      summary: 'List SLA templates (details with "get" or --json)',
      prepare: () => send('GET', PATH),
      render: list({ ID: 'id', TYPE: 'type', NAME: 'name', PERIOD: 'period', OWNER: 'ownerType', USER: 'userId', 'WORK GROUP': 'workGroupId' }),
    },
    { verb: 'get', summary: 'Show one SLA template', args: [TEMPLATE_ID], prepare: (i) => send('GET', `${PATH}/${seg(i.args['id']!)}`), render: one() },
    {
      verb: 'create',
      summary: 'Create an SLA template from JSON (Single: configItems; Multi: templates)',
      options: BODY_OPTIONS,
      exclusive: [['body', 'file']],
      atLeastOne: ['body', 'file'],
      prepare: withBody('POST', () => PATH),
      render: one(),
    },
    {
      verb: 'update',
      summary: 'Change fields of an SLA template from JSON (lists, calendar and owner are replaced whole)',
      args: [TEMPLATE_ID],
      options: BODY_OPTIONS,
      exclusive: [['body', 'file']],
      atLeastOne: ['body', 'file'],
      prepare: withBody('PATCH', (i) => `${PATH}/${seg(i.args['id']!)}`),
      render: one(),
    },
    {
      verb: 'delete',
      summary: 'Delete an SLA template (refused while a Multi template lists it)',
      args: [TEMPLATE_ID],
      prepare: (i) => send('DELETE', `${PATH}/${seg(i.args['id']!)}`),
      render: done((i) => `Deleted SLA template ${i.args['id']}.`),
    },
  ],
};
