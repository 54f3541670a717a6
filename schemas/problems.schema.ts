/**
 * Problems as operators see them (issue #30): the list, one problem with its hits, comments and
 * history, the lifecycle actions, and the live changes (SSE). Not to be confused with
 * problem.schema.ts, the RFC 9457 "problem details" of error answers.
 */
import Type, { type Static } from 'typebox';
import { CiTypeIcon, databaseIconExample } from './cmdb-reference.schema.js';
import { LIMITS, Nullable } from './common.schema.js';

const Iso = (description: string) => Type.String({ format: 'date-time', description });

export const ProblemPriority = Type.Union([Type.Literal('Problem1'), Type.Literal('Problem2'), Type.Literal('Problem3'), Type.Literal('Problem4')]);

export const ProblemAcknowledgement = Type.Object(
  {
    by: Type.Integer({ description: 'The user id' }),
    byName: Type.String(),
    at: Iso('When it was acknowledged'),
    comment: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

export const ProblemItem = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    trigger: Type.Object({ id: Type.Integer(), name: Type.String() }),
    configItem: Type.Object({
      id: Type.Integer(),
      name: Type.String({ description: 'Empty once the CI is deleted' }),
      configItemType: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), description: Type.String(), icon: Nullable(CiTypeIcon) })),
    }),
    priority: ProblemPriority,
    dateStart: Iso('When its first record was dated'),
    dateEnd: Nullable(Iso('When a resolving record (or a resolve by hand, or the deletion of its CI or trigger) closed it; null while open')),
    duration: Type.Integer({ description: 'Milliseconds: dateEnd − dateStart, or now − dateStart while open' }),
    influence: Type.Object({ value: Type.Number(), maxInfluence: Type.Boolean() }),
    tags: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), colorName: Type.String() })),
    incidents: Type.Array(
      Type.Object({ connector: Type.Object({ id: Type.Integer(), name: Type.String() }), incidents: Type.Array(Type.Object({ id: Type.String(), type: Type.String() })) }),
    ),
    acknowledged: Nullable(ProblemAcknowledgement),
    inMaintenance: Type.Boolean({ description: 'An active maintenance mode covers its CI now' }),
    commentsCount: Type.Integer(),
  },
  { additionalProperties: false },
);
export type ProblemItemBody = Static<typeof ProblemItem>;

export const ProblemList = Type.Object(
  {
    items: Type.Array(ProblemItem),
    nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last page' })),
    total: Type.Optional(Type.Integer({ description: 'Every problem the filters match (only with withTotal=true)' })),
  },
  { additionalProperties: false },
);

const Text = (description: string) => Type.Optional(Type.String({ description }));

/** Strings, so a bad value is answered with a message naming the rule (problem-query.ts). */
export const ProblemListQuery = Type.Object({
  state: Text('open (default), closed or all'),
  configItemIds: Text('Comma-separated CI ids'),
  withDescendants: Text('true: the CIs below configItemIds too (default false)'),
  triggerIds: Text('Comma-separated trigger ids'),
  priorities: Text('Comma-separated: 1–4 or Problem1–Problem4'),
  tags: Text('A tag name, or name=value for a tag named so; repeat for more (all must match)'),
  acknowledged: Text('true or false'),
  inMaintenance: Text('true or false: an active maintenance mode covers the CI now'),
  from: Text('ISO 8601: problems still open at or after this instant'),
  to: Text('ISO 8601: problems started before this instant'),
  search: Text('Case-insensitive substring of the trigger or CI name'),
  sort: Text('dateStart, priority or duration; a leading - for descending (default -dateStart)'),
  limit: Text('1–1000 (default 100)'),
  cursor: Text('The nextCursor of the page before'),
  withTotal: Text('true: count every match (default false)'),
});

export const ProblemHit = Type.Object({ at: Iso('The record’s date'), eventId: Type.String(), resolve: Type.Boolean() }, { additionalProperties: false });

export const ProblemComment = Type.Object(
  { id: Type.String({ format: 'uuid' }), by: Type.Integer(), byName: Type.String(), at: Iso('When it was written'), text: Type.String() },
  { additionalProperties: false },
);

export const ProblemHistoryEntry = Type.Object(
  {
    action: Type.Union([Type.Literal('acknowledge'), Type.Literal('unacknowledge'), Type.Literal('comment'), Type.Literal('resolve')]),
    by: Type.Integer(),
    byName: Type.String(),
    at: Iso('When it was done'),
    text: Nullable(Type.String({ description: 'The comment, if any' })),
  },
  { additionalProperties: false },
);

export const ProblemDetail = Type.Object(
  {
    ...ProblemItem.properties,
    hits: Type.Object({
      items: Type.Array(ProblemHit, { description: 'The records that matched its trigger for its CI while it was open, newest first' }),
      nextCursor: Nullable(Type.String({ description: 'Pass as `hitsCursor` for older hits' })),
    }),
    comments: Type.Array(ProblemComment),
    history: Type.Array(ProblemHistoryEntry, { description: 'Lifecycle actions, oldest first' }),
  },
  { additionalProperties: false },
);

export const ProblemDetailQuery = Type.Object({
  hitsLimit: Text('Hits per page, 1–1000 (default 100)'),
  hitsCursor: Text('The hits.nextCursor of the answer before'),
});

const Comment = Type.String({ minLength: 1, maxLength: LIMITS.text });

export const AcknowledgeBody = Type.Object({ comment: Type.Optional(Comment) }, { additionalProperties: false });
export const CommentBody = Type.Object({ text: Comment }, { additionalProperties: false });
export const ResolveBody = Type.Object({ comment: Comment }, { additionalProperties: false });

/** The list's filters in a body (the same names and texts as the query), and a comment. */
export const BulkAcknowledgeBody = Type.Object(
  {
    filter: Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 50 })]), {
      maxProperties: 20,
      description: 'The list’s query parameters (state is always open); tags as an array',
    }),
    comment: Type.Optional(Comment),
  },
  { additionalProperties: false },
);

export const BulkAcknowledgeResult = Type.Object(
  {
    matched: Type.Integer({ description: 'Open problems the filter matched' }),
    changed: Type.Integer({ description: 'Problems now acknowledged by this request' }),
    refused: Type.Integer({ description: 'Problems a record closed before the acknowledgement reached them' }),
  },
  { additionalProperties: false },
);

export const problemItemExample: ProblemItemBody = {
  id: '0b6f7c1e-6f0e-4b8a-9d3c-2a1f4e5d6c7b',
  trigger: { id: 3, name: 'cpu-high' },
  configItem: { id: 42, name: 'db-01', configItemType: { id: 2, name: 'Database', description: 'Database servers', icon: databaseIconExample } },
  priority: 'Problem2',
  dateStart: '2026-11-25T09:12:00.000Z',
  dateEnd: null,
  duration: 1_800_000,
  influence: { value: 30, maxInfluence: false },
  tags: [{ id: 1, name: 'cpu', colorName: 'red' }],
  incidents: [{ connector: { id: 7, name: 'tracker' }, incidents: [{ id: 'INC-1', type: 'Incident' }] }],
  acknowledged: { by: 5, byName: 'alice', at: '2026-11-25T09:20:00.000Z', comment: 'looking' },
  inMaintenance: false,
  commentsCount: 1,
};

export const problemListExample: Static<typeof ProblemList> = { items: [problemItemExample], nextCursor: 'eyJrIjoiZGF0ZVN0YXJ0IiwiZCI6MSwidiI6MCwicyI6MCwiaSI6IjAifQ' };

export const problemCommentExample: Static<typeof ProblemComment> = {
  id: '5d1c7e0a-2b3f-4c6d-8e9f-0a1b2c3d4e5f',
  by: 5,
  byName: 'alice',
  at: '2026-11-25T09:25:00.000Z',
  text: 'The fan was replaced',
};

export const problemDetailExample: Static<typeof ProblemDetail> = {
  ...problemItemExample,
  hits: {
    items: [
      { at: '2026-11-25T09:40:00.000Z', eventId: '3bf0d760-385c-dba7-cb73-9a4d00000002', resolve: false },
      { at: '2026-11-25T09:12:00.000Z', eventId: '3bf0d760-385c-dba7-cb73-9a4d00000001', resolve: false },
    ],
    nextCursor: null,
  },
  comments: [problemCommentExample],
  history: [
    { action: 'acknowledge', by: 5, byName: 'alice', at: '2026-11-25T09:20:00.000Z', text: 'looking' },
    { action: 'comment', by: 5, byName: 'alice', at: '2026-11-25T09:25:00.000Z', text: 'The fan was replaced' },
  ],
};

export const acknowledgeExample: Static<typeof AcknowledgeBody> = { comment: 'looking' };
export const commentExample: Static<typeof CommentBody> = { text: 'The fan was replaced' };
export const resolveExample: Static<typeof ResolveBody> = { comment: 'Fixed by hand; the check no longer reports' };
export const bulkAcknowledgeExample: Static<typeof BulkAcknowledgeBody> = { filter: { configItemIds: '42', withDescendants: 'true', priorities: '1,2' }, comment: 'storm: on it' };
export const bulkAcknowledgeResultExample: Static<typeof BulkAcknowledgeResult> = { matched: 12, changed: 12, refused: 0 };
