/**
 * Issue #30: GET /problems/stream, every change of a problem as a Server-Sent Event (`opened`,
 * `updated`, `acknowledged`, `commented`, `resolved`, `removed`), the problem as data, filtered by
 * the list's parameters (state defaults to `all` here, so resolutions are seen) and by the caller's
 * rights at each event: a CI right revoked stops that CI's events, a token revoked or a user
 * disabled ends the stream. `Last-Event-ID` resumes after that event when the process still
 * holds it; otherwise one `reset` event tells the client to reload the list.
 */
import { ProblemListQuery } from '../../../schemas/problems.schema.js';
import { modesCovering } from '../../control-plane/maintenance/maintenance-coverage.js';
import type { Subject } from '../../control-plane/rights/ci-rights.js';
import type { PlatformModel } from '../../control-plane/model.js';
import { defineRoute, type Route } from '../../runtime/http/route.js';
import { createSseChannel, SSE_HEADERS, sseFrame } from '../../runtime/http/sse.js';
import type { ApiDeps } from '../api-deps.js';
import { type Principal, principal } from '../auth.js';
import { createVisibility } from '../cmdb/visibility.js';
import { problems as errors } from '../../runtime/http/route-kit.js';
import type { FeedEntry } from './problem-feed.js';
import { parseProblemFilter, type ProblemFilter } from './problem-filter.js';
import { problemItem } from './problem-item.js';
import { matchesProblem } from './problem-match.js';
import { type ProblemScope, resolveScope } from './problem-scope.js';
import { PROBLEMS } from './problems.routes.js';

export interface ProblemStreamOptions {
  /** A comment line this often (ms). */
  keepAliveMs: number;
  /** Bytes waiting for one client beyond which it is disconnected. */
  maxQueuedBytes: number;
}

export const DEFAULT_STREAM_OPTIONS: ProblemStreamOptions = { keepAliveMs: 15_000, maxQueuedBytes: 4 * 1024 * 1024 };

/** The caller's subject as the model now stands, or null once its token or user no longer holds. */
function currentSubject(model: PlatformModel, p: Principal, now: number): Subject | null {
  const identity = model.slices.identity;
  const token = identity.tokens.get(p.token.id);
  const user = identity.users.get(p.user.id);
  if (!token || token.revokedAt !== null || (token.expiresAt !== null && Date.parse(token.expiresAt) <= now) || !user || user.disabled) return null;
  return { workGroupIds: identity.workGroupsOf(user.id), admin: identity.rightsOf(user).has('base-system.admin') };
}

export function problemStreamRoutes(deps: ApiDeps, options: ProblemStreamOptions = DEFAULT_STREAM_OPTIONS): Route[] {
  const model = deps.controlPlane.model;
  const { feed } = deps.problems;
  const visibleTo = createVisibility(model);
  /** The JSON of an entry's item, built once for every subscriber it reaches. */
  const itemJson = new WeakMap<FeedEntry, string>();
  const dataOf = (entry: FeedEntry): string => {
    let text = itemJson.get(entry);
    if (text === undefined) itemJson.set(entry, (text = JSON.stringify(problemItem(model, entry.facts, deps.now()))));
    return text;
  };
  return [
    defineRoute({
      method: 'GET',
      path: `${PROBLEMS}/stream`,
      name: 'problems.stream',
      summary: 'Live problem changes as Server-Sent Events, filtered like the list; resumable with Last-Event-ID',
      tags: ['problems'],
      security: 'bearer',
      authenticate: deps.auth.authenticate,
      schema: {
        query: ProblemListQuery,
        responses: {
          200: {
            description:
              'text/event-stream: events opened, updated, acknowledged, commented, resolved, removed (data: the problem), reset (reload the list), disconnect (the client was too slow); a comment line every 15 s',
            contentType: 'text/event-stream',
          },
          ...errors(400, 401),
        },
      },
      handler: (req) => {
        const source = req.query;
        const parsed = parseProblemFilter({ get: (n) => (n === 'state' ? (source.get(n) ?? 'all') : source.get(n)), getAll: (n) => source.getAll(n) });
        // Maintenance is asked at each event (it changes with time); the rest of the scope with the model.
        const filter: ProblemFilter = { ...parsed, inMaintenance: undefined };
        const p = principal(req);
        let revision = -1;
        let subject: Subject | null = p.subject;
        let scope: ProblemScope = { now: 0 };
        let visible: (ciId: number) => boolean = () => false;
        const refresh = (): void => {
          if (revision === model.revision) return;
          revision = model.revision;
          subject = currentSubject(model, p, deps.now());
          if (!subject) return;
          scope = resolveScope(model, filter, undefined, deps.now());
          visible = visibleTo(subject);
        };
        const wanted = (entry: FeedEntry): boolean => {
          const ciId = entry.facts.row.ci_id;
          return (
            visible(ciId) &&
            matchesProblem(entry.facts, filter, scope) &&
            (parsed.inMaintenance === undefined || modesCovering(model, ciId, deps.now()).length > 0 === parsed.inMaintenance)
          );
        };
        let stop = (): void => undefined;
        const channel = createSseChannel({ ...options, onClose: () => stop() });
        const deliver = (entry: FeedEntry): void => {
          refresh();
          if (!subject) {
            channel.close(sseFrame('disconnect', JSON.stringify({ reason: 'unauthorized', detail: 'the token was revoked or expired, or the user disabled' })));
            return;
          }
          if (wanted(entry)) channel.send(sseFrame(entry.change.kind, dataOf(entry), entry.id));
        };
        const lastEventId = req.headers['last-event-id'] ?? source.get('lastEventId') ?? undefined;
        channel.send('retry: 3000\n\n');
        let subscription = feed.subscribe(lastEventId, deliver);
        if (subscription === 'reset') {
          channel.send(sseFrame('reset', JSON.stringify({ reason: 'The changes after Last-Event-ID are no longer held: reload the list, then follow this stream' })));
          subscription = feed.subscribe(undefined, deliver) as Exclude<typeof subscription, 'reset'>;
        }
        stop = subscription.stop;
        for (const entry of subscription.missed) deliver(entry);
        return { status: 200, headers: { ...SSE_HEADERS }, stream: channel, live: true };
      },
    }),
  ];
}
