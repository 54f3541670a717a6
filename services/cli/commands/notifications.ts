/**
 * `ops receivers …` and `ops policies …`: notification receivers and policies (issue #31, admin
 * API /notifications/receivers and /notifications/policies). Admins manage all of them; users with
 * the notifications-writer role those of their workgroups. Bodies are JSON, inline with --body or
 * from a file with --file (better for secrets: a command line stays in the shell's history).
 * Receivers are shown without their secrets, as the API answers.
 */
import { readBody } from '../body-input.js';
import { done, list, one } from '../render.js';
import { type CommandInput, type NounSpec, type OptionSpec, type PrepareDeps, type Render, seg, send, str, usage } from '../spec.js';
import { cell, isRecord, printable, table } from '../table.js';

const RECEIVERS = '/notifications/receivers';
const POLICIES = '/notifications/policies';
const RECEIVER_ID = { name: 'id', description: 'The receiver id', kind: 'id' as const };
const POLICY_ID = { name: 'id', description: 'The policy id', kind: 'id' as const };

const bodyOptions = (example: string): Record<string, OptionSpec> => ({
  body: { type: 'string', value: 'json', description: `The JSON body, e.g. '${example}'` },
  file: { type: 'string', value: 'path', description: 'Read the JSON body from this file (keeps secrets out of the shell history)' },
});
const RECEIVER_BODY = bodyOptions('{"type":"slack","name":"#network","ownerWorkGroup":{"id":1},"url":"https://hooks.slack.com/services/…"}');
const POLICY_BODY = bodyOptions('{"name":"Core","ownerWorkGroup":{"id":1},"configItems":{"ids":[7],"withDescendants":true},"receiverIds":[2]}');

const withBody = (method: 'POST' | 'PATCH', path: (i: CommandInput) => string) => async (i: CommandInput, deps: PrepareDeps) => {
  const body = await readBody(i, deps);
  return body.ok ? send(method, path(i), body.body) : usage(body.usage);
};
const bodyCommand = { exclusive: [['body', 'file']], atLeastOne: ['body', 'file'] };

/** The owner workgroup's id, for the tables. */
const owned = (items: unknown): unknown =>
  Array.isArray(items) ? items.map((item) => (isRecord(item) && isRecord(item['ownerWorkGroup']) ? { ...item, workGroup: item['ownerWorkGroup']['id'] } : item)) : items;
const ownedList =
  (columns: Record<string, string>): Render =>
  (data, input) =>
    list(columns)(owned(data), input);

/** A page of the delivery log, then how to ask for the next one. */
export const renderDeliveries: Render = (data) => {
  const page = isRecord(data) ? data : {};
  const items = Array.isArray(page['items']) ? page['items'] : [];
  const text =
    items.length === 0
      ? 'No deliveries.\n'
      : table(items, {
          AT: 'at',
          ATTEMPT: 'attempt',
          STATUS: 'status',
          CODE: 'statusCode',
          'LATENCY MS': 'latencyMs',
          DELIVERY: 'deliveryId',
          KINDS: 'eventKinds',
          ERROR: 'error',
        });
  const next = page['nextCursor'];
  return typeof next === 'string' && next !== '' ? `${text}More: add --cursor ${printable(next)} for the next page.\n` : text;
};

export const receivers: NounSpec = {
  name: 'receivers',
  summary: 'Notification receivers: where messages go (webhook, slack, teams, pagerduty, alertmanager, email)',
  commands: [
    {
      verb: 'list',
      summary: 'List the receivers you may manage (secrets are never shown)',
      prepare: () => send('GET', RECEIVERS),
      render: ownedList({ ID: 'id', TYPE: 'type', NAME: 'name', 'WORK GROUP': 'workGroup', ENABLED: 'enabled', 'DISABLED BECAUSE': 'disabledReason', URL: 'url' }),
    },
    { verb: 'get', summary: 'Show one receiver', args: [RECEIVER_ID], prepare: (i) => send('GET', `${RECEIVERS}/${seg(i.args['id']!)}`), render: one() },
    {
      verb: 'create',
      summary: 'Create a receiver from JSON (its URLs must pass the outbound address rules)',
      options: RECEIVER_BODY,
      ...bodyCommand,
      prepare: withBody('POST', () => RECEIVERS),
      render: one(),
    },
    {
      verb: 'update',
      summary: 'Change fields of a receiver from JSON (secrets and recipients replaced whole)',
      args: [RECEIVER_ID],
      options: RECEIVER_BODY,
      ...bodyCommand,
      prepare: withBody('PATCH', (i) => `${RECEIVERS}/${seg(i.args['id']!)}`),
      render: one(),
    },
    {
      verb: 'delete',
      summary: 'Delete a receiver (refused while a policy sends to it)',
      args: [RECEIVER_ID],
      prepare: (i) => send('DELETE', `${RECEIVERS}/${seg(i.args['id']!)}`),
      render: done((i) => `Deleted receiver ${i.args['id']}.`),
    },
    {
      verb: 'deliveries',
      summary: "A page of the receiver's delivery log, newest first",
      args: [RECEIVER_ID],
      options: {
        limit: { type: 'string', value: 'n', kind: 'id', description: 'Deliveries per page, up to 1000 (default 100)' },
        cursor: { type: 'string', value: 'cursor', description: 'The cursor the page before named' },
      },
      prepare: (i) => {
        const query = new URLSearchParams();
        const limit = str(i, 'limit');
        const cursor = str(i, 'cursor');
        if (limit !== undefined) query.set('limit', limit);
        if (cursor !== undefined) query.set('cursor', cursor);
        return send('GET', `${RECEIVERS}/${seg(i.args['id']!)}/deliveries${query.size === 0 ? '' : `?${query}`}`);
      },
      render: renderDeliveries,
    },
    {
      verb: 'replay',
      summary: 'Ask for one delivery to be sent again (the dispatcher takes the request up)',
      args: [RECEIVER_ID, { name: 'deliveryId', description: 'The delivery id, as the log shows it' }],
      prepare: (i) => send('POST', `${RECEIVERS}/${seg(i.args['id']!)}/deliveries/${seg(i.args['deliveryId']!)}/replay`),
      render: (data, i) => `Replay ${isRecord(data) ? cell(data['id']) : '?'} of delivery ${printable(i.args['deliveryId']!)} to receiver ${i.args['id']} requested.\n`,
    },
  ],
};

export const policies: NounSpec = {
  name: 'policies',
  summary: 'Notification policies: which events go to which receivers',
  commands: [
    {
      verb: 'list',
      summary: 'List the policies you may manage',
      prepare: () => send('GET', POLICIES),
      render: ownedList({ ID: 'id', NAME: 'name', 'WORK GROUP': 'workGroup', ENABLED: 'enabled', RECEIVERS: 'receiverIds', KINDS: 'kinds' }),
    },
    { verb: 'get', summary: 'Show one policy', args: [POLICY_ID], prepare: (i) => send('GET', `${POLICIES}/${seg(i.args['id']!)}`), render: one() },
    { verb: 'create', summary: 'Create a policy from JSON', options: POLICY_BODY, ...bodyCommand, prepare: withBody('POST', () => POLICIES), render: one() },
    {
      verb: 'update',
      summary: 'Change fields of a policy from JSON (lists and configItems replaced whole)',
      args: [POLICY_ID],
      options: POLICY_BODY,
      ...bodyCommand,
      prepare: withBody('PATCH', (i) => `${POLICIES}/${seg(i.args['id']!)}`),
      render: one(),
    },
    {
      verb: 'delete',
      summary: 'Delete a policy',
      args: [POLICY_ID],
      prepare: (i) => send('DELETE', `${POLICIES}/${seg(i.args['id']!)}`),
      render: done((i) => `Deleted policy ${i.args['id']}.`),
    },
  ],
};
