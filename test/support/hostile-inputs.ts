/**
 * The five inputs of issue #34 that held the whole process, as HTTP calls against a running
 * platform (a child process, so that what it does on its event loop is measured from outside):
 * shared by test/integration/runtime/event-loop-budget.test.ts and bench/event-loop.bench.ts.
 * Each `send` answers what the documented answer needs checking against.
 */
import { gzipSync } from 'node:zlib';
import { type Answer, call } from './http.js';

const ADMIN = '/api/admin/v1';
const CIS = '/api/public/sm/v2/rsm/config-items';
export const MAINT = '/api/public/sm/v1/rsm-maintenance';
const STREAM_DATA = '/api/public/cl/v1/stream-data';
const BULK = '/api/public/cl/v1/elastic/_bulk';

/** The ReDoS pair: a pattern that backtracks exponentially in a backtracking engine, and its worst text. */
export const REDOS_PATTERN = '(a+)+$';
export const REDOS_RECORD = { msg: `${'a'.repeat(30)}!` };
/** The sparse rule: a fifth Sunday in February every twelve months, from a 29 February that is one. */
export const SPARSE_RULE = 'FREQ=MONTHLY;INTERVAL=12;BYDAY=5SU;COUNT=5000';
/** Lines of the `{"delete":{}}` flood: 16.7 MB decoded, under the default 16 MiB body limit; a 32 KB gzip. */
export const DELETE_FLOOD_LINES = 1_190_000;
export const DEEP_LEVELS = 5000;

export interface Installed {
  ciId: number;
  ciName: string;
  streamId: number;
  streamKey: string;
  triggerId: number;
}

export class HostileInputs {
  constructor(
    readonly base: string,
    private readonly token: string,
  ) {}

  api(method: string, path: string, options: { json?: unknown; body?: string | Buffer; headers?: Record<string, string>; token?: string | null } = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== null) headers['authorization'] = `Bearer ${options.token ?? this.token}`;
    return call(this.base, method, path, { ...options, headers });
  }

  private async must(answer: Promise<Answer>, status: number, what: string): Promise<any> {
    const a = await answer;
    if (a.status !== status) throw new Error(`${what}: ${a.status} ${a.text.slice(0, 500)}`);
    return a.body;
  }

  /** A CI, a stream and a trigger matching REDOS_PATTERN on `msg` (the CI is fixed; `status: ok` resolves). */
  async install(tag: string): Promise<Installed> {
    const wg = await this.must(this.api('POST', `${ADMIN}/work-groups`, { json: { name: `wg-${tag}`, memberIds: [] } }), 201, 'work group');
    const ci = await this.must(this.api('POST', CIS, { json: { name: `ci-${tag}`, ownerWorkGroup: { id: wg.id } } }), 201, 'CI');
    const stream = await this.must(this.api('POST', `${ADMIN}/streams`, { json: { name: `stream-${tag}` } }), 201, 'stream');
    const trigger = await this.must(this.api('POST', `${ADMIN}/triggers`, { json: this.redosTrigger(`redos-${tag}`, stream.id, ci.id) }), 201, 'trigger');
    return { ciId: ci.id, ciName: ci.name, streamId: stream.id, streamKey: stream.key, triggerId: trigger.id };
  }

  redosTrigger(name: string, streamId: number, ciId: number, pattern = REDOS_PATTERN): Record<string, unknown> {
    return {
      name,
      streamIds: [streamId],
      match: [{ field: 'msg', op: 'regex', pattern }],
      ci: { by: 'fixed', id: ciId },
      priority: { value: 2 },
      resolve: { field: 'status', values: ['ok'] },
      influence: { value: 50, maxInfluence: false },
    };
  }

  post(key: string, records: object[]): Promise<Answer> {
    const body = records.map((r) => JSON.stringify(r)).join('\n');
    return this.api('POST', `${STREAM_DATA}?streamKey=${key}`, { body, headers: { 'content-type': 'application/x-ndjson' }, token: null });
  }

  /** The CI's state value (`Ok`, `Problem`…). */
  async ciState(ciId: number): Promise<string> {
    return (await this.must(this.api('GET', `${CIS}/${ciId}?includeState=true`), 200, 'CI')).state.value;
  }

  /** Waits (polling, at most `timeoutMs`) until the CI's state is `value`; answers the ms waited. */
  async untilState(ciId: number, value: string, timeoutMs = 20_000): Promise<number> {
    const started = performance.now();
    for (;;) {
      if ((await this.ciState(ciId)) === value) return performance.now() - started;
      if (performance.now() - started > timeoutMs) throw new Error(`CI ${ciId} not ${value} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * 1. The ReDoS record, then a record that matches: the first is answered and matched in linear
   * time (no match: it ends in "!"), the second opens a problem on the CI at once.
   */
  async redos(installed: Installed): Promise<{ hostile: Answer; next: Answer; problemAfterMs: number }> {
    const hostile = await this.post(installed.streamKey, [REDOS_RECORD]);
    const next = await this.post(installed.streamKey, [{ msg: 'aaaa' }]);
    const problemAfterMs = await this.untilState(installed.ciId, 'Problem');
    return { hostile, next, problemAfterMs };
  }

  /** 2a. A 32 KB gzip body of DELETE_FLOOD_LINES `{"delete":{}}` lines (build it before measuring). */
  static deleteFlood(lines = DELETE_FLOOD_LINES): Buffer {
    return gzipSync(Buffer.from('{"delete":{}}\n'.repeat(lines)));
  }

  bulk(key: string, body: Buffer | string, gzip: boolean): Promise<Answer> {
    const headers: Record<string, string> = { 'content-type': 'application/x-ndjson', 'x-smon-stream-key': key };
    if (gzip) headers['content-encoding'] = 'gzip';
    return this.api('POST', BULK, { body, headers, token: null });
  }

  /** `bulk`, reading the answer as text only (no JSON parse while a probe runs in this process). */
  async bulkText(key: string, body: Buffer | string, gzip: boolean): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { 'content-type': 'application/x-ndjson', 'x-smon-stream-key': key };
    if (gzip) headers['content-encoding'] = 'gzip';
    const response = await fetch(this.base + BULK, { method: 'POST', headers, body });
    return { status: response.status, text: await response.text() };
  }

  /** 2b. A `_bulk` body whose document nests `levels` deep, between two plain ones. */
  static deepBulk(levels = DEEP_LEVELS): string {
    const deep = `{"@timestamp":"2026-11-21T10:00:00Z","v":${'['.repeat(levels)}1${']'.repeat(levels)}}`;
    const plain = '{"@timestamp":"2026-11-21T10:00:00Z","message":"plain"}';
    return `{"index":{}}\n${plain}\n{"index":{}}\n${deep}\n{"index":{}}\n${plain}\n`;
  }

  /** A mode body on the CI. */
  static mode(ciId: number, dateStart: string, dateEnd: string, recurrence?: Record<string, unknown>): Record<string, unknown> {
    return { title: 'hostile', dateStart, dateEnd, configItems: [{ id: ciId, scope: 'Ci' }], ...(recurrence ? { recurrence } : {}) };
  }

  /**
   * 3. A daily mode whose first occurrence lasts 40 years (refused at save), then the calendar
   * feed of a daily mode with the longest occurrence allowed, a day, and of the modes saved.
   */
  async calendar(ciId: number): Promise<{ refused: Answer; saved: Answer; feed: Answer }> {
    const year = new Date().getUTCFullYear() + 1;
    const daily = { rule: 'FREQ=DAILY', timeZone: 'Europe/Berlin' };
    const refused = await this.api('POST', MAINT, { json: HostileInputs.mode(ciId, `${year}-01-01T00:00:00Z`, `${year + 40}-01-01T00:00:00Z`, daily) });
    const saved = await this.api('POST', MAINT, { json: HostileInputs.mode(ciId, `${year}-01-01T00:00:00+01:00`, `${year}-01-02T00:00:00+01:00`, daily) });
    const feed = await this.must(this.api('POST', `${MAINT}/calendar-feeds`, { json: { name: 'hostile' } }), 201, 'calendar feed');
    return { refused, saved, feed: await this.api('GET', feed.url as string, { token: null }) };
  }

  /** 4. The sparse rule from 2032-02-29: a preview of 10 occurrences, then the save. */
  async sparse(ciId: number): Promise<{ preview: Answer; saved: Answer }> {
    const body = HostileInputs.mode(ciId, '2032-02-29T01:00:00Z', '2032-02-29T03:00:00Z', { rule: SPARSE_RULE, timeZone: 'Europe/Berlin' });
    const preview = await this.api('POST', `${MAINT}/preview?occurrences=10`, { json: body });
    const saved = await this.api('POST', MAINT, { json: body });
    return { preview, saved };
  }
}
