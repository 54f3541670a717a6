/**
 * Issue #30: the problems the pipeline makes, for REST clients. A caller sees the problems of the
 * CIs it may read with at least basic-read (the list is filtered, never a 403); acting on one
 * needs write on its CI. Actions go to the problem stage as messages (send-actions.ts).
 */
import type { ProblemAction, ProblemActionKind } from '../../../pipelines/problems/problem-actions.js';
import {
  AcknowledgeBody,
  acknowledgeExample,
  BulkAcknowledgeBody,
  bulkAcknowledgeExample,
  BulkAcknowledgeResult,
  bulkAcknowledgeResultExample,
  CommentBody,
  commentExample,
  ProblemComment,
  problemCommentExample,
  ProblemDetail,
  problemDetailExample,
  ProblemDetailQuery,
  ProblemItem,
  problemItemExample,
  ProblemList,
  problemListExample,
  ProblemListQuery,
  ResolveBody,
  resolveExample,
} from '../../../schemas/problems.schema.js';
import { canBasicRead, canWrite, Level, levelOn } from '../../control-plane/rights/ci-rights.js';
import { fail } from '../../../schemas/errors.js';
import { defineRoute, json, type Route } from '../../runtime/http/route.js';
import type { ApiDeps } from '../api-deps.js';
import { type Principal, principal, type PrincipalRequest } from '../auth.js';
import { createVisibility } from '../cmdb/visibility.js';
import { problems as errors } from '../../runtime/http/route-kit.js';
import { MAX_LIMIT, parseProblemFilter, recordSource } from './problem-filter.js';
import { factsOf, problemItem, type RowFacts } from './problem-item.js';
import { checkProblemId, openPage, problemActions, problemById, problemHits, storedPage } from './problem-reads.js';
import { resolveScope } from './problem-scope.js';
import { newActionId } from './send-actions.js';

export const PROBLEMS = '/api/public/sm/v1/problems';
/** At most this many problems in one bulk acknowledgement. */
export const BULK_LIMIT = 10_000;

/** `bulkLimit`: the most problems one bulk acknowledgement takes (tests use a small one). */
export function problemRoutes(deps: ApiDeps, bulkLimit = BULK_LIMIT): Route[] {
  const model = deps.controlPlane.model;
  const { feed, actions } = deps.problems;
  const visibleTo = createVisibility(model);
  const base = { tags: ['problems'], security: 'bearer' as const, authenticate: deps.auth.authenticate };
  const Item = { description: 'The problem as it now stands', schema: ProblemItem, example: problemItemExample };
  const itemOf = (f: RowFacts) => problemItem(model, f, deps.now());

  /** The caller's level on a CI; an admin's is write, also on a CI deleted since. */
  const levelOf = (req: PrincipalRequest, ciId: number): Level => (principal(req).subject.admin ? Level.Write : levelOn(model.slices.cmdb, principal(req).subject, ciId));

  /** The problem, when the caller may see it (404 otherwise: its existence is not told). */
  async function visibleProblem(req: PrincipalRequest): Promise<RowFacts> {
    const id = checkProblemId(req.params['id']);
    const found = await problemById(deps.analytics, feed.open, id);
    if (!found || !canBasicRead(levelOf(req, found.row.ci_id))) throw fail('problem.not_found', { id });
    return found;
  }

  /** Sends one action on the problem of the request, answering the problem as the action left it. */
  async function act(req: PrincipalRequest, kind: ProblemActionKind, text: string | undefined) {
    const f = await visibleProblem(req);
    const p = principal(req);
    if (!canWrite(levelOf(req, f.row.ci_id))) throw fail('problem.write_forbidden', { ciId: f.row.ci_id });
    if (kind !== 'comment' && f.end !== null) throw fail('problem.closed', { id: f.row.id });
    const action = actionOf(p, kind, f, deps.now(), text);
    const answer = (await actions.send([action])).get(action.id)!;
    if (answer.verdict.refused) throw fail(answer.verdict.refused, { id: f.row.id });
    return { action, facts: answer.change ? factsOf(answer.change.row) : f };
  }

  const lifecycle = (
    kind: Exclude<ProblemActionKind, 'comment'>,
    path: string,
    summary: string,
    body?: { schema: typeof AcknowledgeBody | typeof ResolveBody; example: unknown },
  ): Route =>
    defineRoute({
      ...base,
      method: 'POST',
      path: `${PROBLEMS}/:id/${path}`,
      name: `problems.${path}`,
      summary,
      schema: {
        ...(body ? { body: body.schema, bodyExample: body.example } : {}),
        responses: { 200: Item, ...errors(400, 401, 403, 404, 409, 415, 503) },
      },
      handler: async (req) => {
        const text = req.body?.comment;
        const { facts } = await act(req, kind, text);
        return json(200, itemOf(facts));
      },
    });

  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: PROBLEMS,
      name: 'problems.list',
      summary: 'Problems on the CIs the caller may see, filtered, sorted and paged by a keyset cursor',
      schema: { query: ProblemListQuery, responses: { 200: { description: 'A page of problems', schema: ProblemList, example: problemListExample }, ...errors(400, 401) } },
      handler: async (req) => {
        const filter = parseProblemFilter(req.query);
        const now = filter.cursor?.now ?? deps.now();
        const subject = principal(req).subject;
        const scope = resolveScope(model, filter, subject.admin ? undefined : { visible: visibleTo(subject), ids: () => visibleTo.ids(subject) }, now);
        const page = filter.state === 'open' && feed.open.loaded ? openPage(feed.open, filter, scope, now) : await storedPage(deps.analytics, filter, scope, now);
        return json(200, {
          items: page.rows.map((f) => problemItem(model, f, now)),
          nextCursor: page.nextCursor,
          ...(page.total === undefined ? {} : { total: page.total }),
        });
      },
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${PROBLEMS}/:id`,
      name: 'problems.get',
      summary: 'One problem with its hits (newest first, paged), comments and lifecycle history',
      schema: { query: ProblemDetailQuery, responses: { 200: { description: 'The problem', schema: ProblemDetail, example: problemDetailExample }, ...errors(400, 401, 404) } },
      handler: async (req) => {
        const f = await visibleProblem(req);
        const limitText = req.query.get('hitsLimit');
        const limit = limitText === null ? 100 : Number(limitText);
        if (limitText !== null && (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_LIMIT)) {
          throw fail('problem.query_invalid', { name: 'hitsLimit', value: JSON.stringify(limitText), rule: `a whole number from 1 to ${MAX_LIMIT}` });
        }
        const [hits, taken] = await Promise.all([
          problemHits(deps.analytics, f.row, limit, req.query.get('hitsCursor') ?? undefined, deps.now()),
          problemActions(deps.analytics, f.row.id),
        ]);
        const at = (ms: number) => new Date(ms).toISOString();
        return json(200, {
          ...itemOf(f),
          hits,
          comments: taken.filter((a) => a.kind === 'comment').map((a) => ({ id: a.actionId, by: a.byId, byName: a.byName, at: at(a.at), text: a.text })),
          history: taken.map((a) => ({ action: a.kind, by: a.byId, byName: a.byName, at: at(a.at), text: a.text === '' ? null : a.text })),
        });
      },
    }),
    lifecycle('acknowledge', 'acknowledge', 'Acknowledge an open problem (someone is on it), with an optional comment', { schema: AcknowledgeBody, example: acknowledgeExample }),
    lifecycle('unacknowledge', 'unacknowledge', 'Take back the acknowledgement of an open problem'),
    lifecycle('resolve', 'resolve', 'Close an open problem by hand: dateEnd is now; a later firing record opens a new problem', { schema: ResolveBody, example: resolveExample }),
    defineRoute({
      ...base,
      method: 'POST',
      path: `${PROBLEMS}/:id/comments`,
      name: 'problems.comment',
      summary: 'Comment on a problem, open or closed',
      schema: {
        body: CommentBody,
        bodyExample: commentExample,
        responses: { 201: { description: 'The comment', schema: ProblemComment, example: problemCommentExample }, ...errors(400, 401, 403, 404, 415, 503) },
      },
      handler: async (req) => {
        const { action } = await act(req, 'comment', req.body.text);
        return json(201, { id: action.id, by: action.by.id, byName: action.by.name, at: new Date(action.at).toISOString(), text: action.text ?? '' });
      },
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: `${PROBLEMS}/acknowledge`,
      name: 'problems.acknowledgeMany',
      summary: `Acknowledge every open problem the list's filters match on CIs the caller may change (at most ${BULK_LIMIT})`,
      schema: {
        body: BulkAcknowledgeBody,
        bodyExample: bulkAcknowledgeExample,
        responses: { 200: { description: 'How many were acknowledged', schema: BulkAcknowledgeResult, example: bulkAcknowledgeResultExample }, ...errors(400, 401, 415, 503) },
      },
      handler: async (req) => {
        const { body } = req;
        const filter = { ...parseProblemFilter(recordSource({ ...body.filter, state: 'open' })), limit: bulkLimit, withTotal: true };
        const now = deps.now();
        const p = principal(req);
        const writable = (ciId: number) => canWrite(levelOn(model.slices.cmdb, p.subject, ciId));
        const sight = { visible: writable, ids: () => new Set([...model.slices.cmdb.cis.keys()].filter(writable)) };
        const scope = resolveScope(model, filter, p.subject.admin ? undefined : sight, now);
        const page = feed.open.loaded ? openPage(feed.open, filter, scope, now) : await storedPage(deps.analytics, filter, scope, now);
        const matched = page.total ?? page.rows.length;
        if (matched > bulkLimit) throw fail('problem.bulk_too_many', { matched, limit: bulkLimit });
        const sent = page.rows.map((f) => actionOf(p, 'acknowledge', f, now, body.comment));
        const answers = sent.length > 0 ? await actions.send(sent) : new Map();
        const refused = [...answers.values()].filter((a) => a.verdict.refused).length;
        return json(200, { matched, changed: answers.size - refused, refused });
      },
    }),
  ];
}

function actionOf(p: Principal, kind: ProblemActionKind, f: RowFacts, at: number, text: string | undefined): ProblemAction {
  return {
    id: newActionId(),
    kind,
    problemId: f.row.id,
    triggerId: f.row.trigger_id,
    ciId: f.row.ci_id,
    by: { id: p.user.id, name: p.user.name },
    at,
    ...(text === undefined ? {} : { text }),
  };
}
