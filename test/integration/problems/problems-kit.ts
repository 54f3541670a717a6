/**
 * Shared set-up for the problem tests (issue #7, DESIGN §7): the CMDB kit plus a stream, a
 * trigger on it, records posted over HTTP, and the problems as the ClickHouse table holds them.
 * A post is answered once the records are on the bus (in-process: in its log on disk); the event
 * worker and the problem stage work behind it, so `post` then waits until both streams are empty,
 * and the problems the records open are written by then.
 */
import { type ApiHooks, createApiPart } from '../../../services/api/api.part.js';
import type { ProblemFeed } from '../../../services/api/problems/problem-feed.js';
import type { ActionSender } from '../../../services/api/problems/send-actions.js';
import { PROBLEM_CHANGES_FEED } from '../../../services/runtime/bus-streams.js';
import { eventually } from '../../support/bus-recorder.js';
import { ingestSettled } from '../../support/settled.js';
import { CIS, Kit } from '../cmdb/cmdb-kit.js';

export const STREAM_DATA = '/api/public/cl/v1/stream-data';
export const TRIGGERS = '/api/admin/v1/triggers';
export const MAINT = '/api/public/sm/v1/rsm-maintenance';
export { CIS };

export interface ProblemRow {
  id: string;
  trigger_id: number;
  ci_id: number;
  date_start: string;
  date_end: string | null;
  priority: number;
  with_maintenance: number;
  incidents: string;
}

export class ProblemsKit extends Kit {
  /** The API's reader of the problem change feed, and its sender of actions (set by start()). */
  feed: ProblemFeed | undefined;
  actions!: ActionSender;

  /** More of the API part's hooks (set before start). */
  apiHooks: ApiHooks = {};

  override start(dataDir?: string, options: Parameters<Kit['start']>[1] = {}): Promise<void> {
    const api = createApiPart({ problems: (p) => ((this.feed = p.feed), (this.actions = p.actions)), problemStream: { keepAliveMs: 200 }, ...this.apiHooks });
    return super.start(dataDir, { ...options, replace: [api, ...(options.replace ?? [])] });
  }

  async stream(): Promise<{ id: number; key: string }> {
    const created = await this.api('POST', '/api/admin/v1/streams', { json: { name: this.uniq('stream') } });
    if (created.status !== 201) throw new Error(`stream: ${created.status} ${created.text}`);
    return { id: created.body.id, key: created.body.key };
  }

  /** A trigger on `streamId`: records with `check` = `cpu` name their CI in `host`; `status: ok` resolves. */
  async trigger(streamId: number, overrides: Record<string, unknown> = {}): Promise<{ id: number; name: string }> {
    const body = {
      name: this.uniq('cpu-high'),
      streamIds: [streamId],
      match: [{ field: 'check', op: 'equals', value: 'cpu' }],
      ci: { by: 'nameField', field: 'host' },
      priority: { field: 'severity', map: { critical: 1, major: 2, minor: 3 }, default: 4 },
      resolve: { field: 'status', values: ['ok', 'resolved'] },
      tags: [{ id: 1, name: 'cpu', colorName: 'red' }],
      incidents: [{ connector: { id: 7, name: 'tracker' }, field: 'ticket', type: 'Incident' }],
      influence: { value: 30, maxInfluence: false },
      ...overrides,
    };
    const created = await this.api('POST', TRIGGERS, { json: body });
    if (created.status !== 201) throw new Error(`trigger: ${created.status} ${created.text}`);
    return { id: created.body.id, name: created.body.name };
  }

  async post(key: string, records: object[]): Promise<void> {
    const body = records.map((r) => JSON.stringify(r)).join('\n');
    const answer = await this.api('POST', `${STREAM_DATA}?streamKey=${key}`, { body, headers: { 'content-type': 'application/x-ndjson' }, token: null });
    if (answer.status !== 200) throw new Error(`post: ${answer.status} ${answer.text}`);
    await this.problemsSettled();
  }

  /** Every record posted is stored and every hit placed, its rows and CI summaries written. */
  async problemsSettled(): Promise<void> {
    await ingestSettled(this.p.platform);
    // A kit started with an API part of its own (the SLA kit's) holds no feed to wait for.
    if (this.feed) await this.feedSettled();
  }

  /** The API has read every change the problem stage published (its open index is current). */
  async feedSettled(): Promise<void> {
    const { lastSeq } = await this.p.platform.engines.bus.feedInfo(PROBLEM_CHANGES_FEED.name);
    await eventually('the API to read the problem changes', async () => (this.feed?.lastSeq ?? -1) >= lastSeq, 30_000, 5);
  }

  async getCi(id: number): Promise<any> {
    const answer = await this.api('GET', `${CIS}/${id}?includeState=true&includeHealth=true`);
    if (answer.status !== 200) throw new Error(`get CI: ${answer.status} ${answer.text}`);
    return answer.body;
  }

  async problems(ciId?: number): Promise<ProblemRow[]> {
    const where = ciId === undefined ? '' : ' WHERE ci_id = {ci:UInt64}';
    return this.p.platform.engines.analytics.query<ProblemRow>(
      `SELECT toString(id) AS id, trigger_id, ci_id, toString(date_start) AS date_start, toString(date_end) AS date_end, priority, with_maintenance, incidents
       FROM problems FINAL${where} ORDER BY date_start, id`,
      ciId === undefined ? {} : { ci: ciId },
    );
  }
}

/** ClickHouse's text of an ISO instant (UTC, milliseconds). */
export const chText = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
