/**
 * `ops sla-templates …`: SLA templates (admin API /sla/templates). Bodies are JSON, given inline
 * with --body or read from a file with --file (`--json` is the global output flag).
 */
import { done, list, one } from '../render.js';
import { send, seg, str, usage, type CommandInput, type NounSpec, type OptionSpec, type PrepareDeps } from '../spec.js';

const TEMPLATE_ID = { name: 'id', description: 'The SLA template id', kind: 'id' as const };
const PATH = '/sla/templates';

const BODY_OPTIONS: Record<string, OptionSpec> = {
  body: {
    type: 'string',
    value: 'json',
    description:
      'The template as JSON, e.g. \'{"type":"Single","name":"Core","period":"ThisMonth","ownerType":"WorkGroup","workGroupId":1,"configItems":[{"id":7}]}\'',
  },
  file: { type: 'string', value: 'path', description: 'Read the template JSON from this file' },
};

type BodyResult = { ok: true; body: Record<string, unknown> } | { ok: false; usage: string };

/** The JSON object from --body or --file (args.ts makes them exclusive, atLeastOne requires one). */
export async function readBody(input: CommandInput, deps: PrepareDeps): Promise<BodyResult> {
  const inline = str(input, 'body');
  const path = str(input, 'file');
  let text: string;
  let source: string;
  if (inline !== undefined) {
    [text, source] = [inline, '--body'];
  } else {
    source = `--file ${path ?? ''}`;
    try {
      text = await deps.readFile(path ?? '');
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { ok: false, usage: `cannot read ${source}${code ? ` (${code})` : ''}` };
    }
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return { ok: false, usage: `${source} is not valid JSON: ${(error as Error).message}` };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, usage: `${source} must be a JSON object` };
  return { ok: true, body: body as Record<string, unknown> };
}

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
