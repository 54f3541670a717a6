/**
 * Benchmark child, the SQL baseline of the problems API benchmark: chDB in a process of its own,
 * on a copy of the platform's ClickHouse data (chDB locks its data directory, so the platform
 * and this process cannot share one), running the statements the API runs, straight through the
 * analytics store — no HTTP, no authentication, no rights, no JSON answer. Commands arrive on the
 * IPC channel (stdin must stay empty for chDB), one JSON line answers each on stdout:
 *   {"cmd":"problems","query":"state=open&limit=100","cis":[…],"now":ms,"seconds":5}
 *     the list's one statement (problem-select.ts) for that query string and CI scope;
 *   {"cmd":"events","streamId":1,"from":ms,"to":ms,"filters":["level=error"],"limit":100,"seconds":5}
 *     the two statements of an event page (event-reads.ts), recorded once and replayed;
 *   {"cmd":"stop"}.
 * Each is run one at a time for 1 s (not counted), then for `seconds`: the answer holds p50 / p99
 * (ms), the executions and the rows of the last one.
 */
import { type ProblemFilter, parseProblemFilter } from '../../services/api/problems/problem-filter.js';
import { problemPageQuery } from '../../services/api/problems/problem-select.js';
import { filterConditions, parseEventFilter } from '../../services/api/streams/event-filter.js';
import { readEvents } from '../../services/api/streams/event-reads.js';
import type { AnalyticsStore, QueryParams } from '../../services/runtime/adapters/analytics/analytics.port.js';
import { createChdbStore } from '../../services/runtime/adapters/analytics/chdb.adapter.js';
import { createLogger } from '../../services/runtime/logger.js';
import { detachStdin } from '../../services/runtime/stdin.js';

detachStdin();

export type BaselineCommand =
  | { cmd: 'problems'; query: string; cis: number[] | null; now: number; seconds: number }
  | { cmd: 'events'; streamId: number; from: number; to: number; filters: string[]; limit: number; seconds: number }
  | { cmd: 'stop' };

export interface BaselineFigures {
  p50Ms: number;
  p99Ms: number;
  executions: number;
  rows: number;
  statements: number;
}

interface Statement {
  sql: string;
  params: QueryParams;
}

const dataDir = process.env['BASELINE_CHDB_DIR'];
if (!dataDir) throw new Error('BASELINE_CHDB_DIR names the copy of the ClickHouse data');
const store = await createChdbStore({ dataDir }, { logger: createLogger('warn', process.stderr) });

function problemStatements(command: Extract<BaselineCommand, { cmd: 'problems' }>): Statement[] {
  const filter: ProblemFilter = parseProblemFilter(new URLSearchParams(command.query));
  const scope = { now: command.now, ...(command.cis ? { cis: new Set(command.cis) } : {}) };
  return [problemPageQuery(filter, scope, command.now, filter.cursor)];
}

/** The statements readEvents sends for the page, as it sends them. */
async function eventStatements(command: Extract<BaselineCommand, { cmd: 'events' }>): Promise<Statement[]> {
  const recorded: Statement[] = [];
  const recorder: AnalyticsStore = {
    ...store,
    query: <T>(sql: string, params?: QueryParams) => {
      recorded.push({ sql, params: params ?? {} });
      return store.query<T>(sql, params);
    },
  };
  const filters = command.filters.map((text) => {
    const parsed = parseEventFilter(text);
    if (!parsed.ok) throw new Error(`filter ${text}: ${parsed.reason}`);
    return parsed.filter;
  });
  await readEvents(recorder, { streamId: command.streamId, from: command.from, to: command.to, limit: command.limit, cursor: undefined, conditions: filterConditions(filters) });
  return recorded;
}

async function time(statements: Statement[], seconds: number): Promise<BaselineFigures> {
  const once = async (): Promise<number> => {
    let rows = 0;
    for (const s of statements) rows = (await store.query(s.sql, s.params)).length;
    return rows;
  };
  for (const warmEnd = performance.now() + 1000; performance.now() < warmEnd;) await once();
  const ms: number[] = [];
  let rows = 0;
  for (const end = performance.now() + seconds * 1000; performance.now() < end;) {
    const started = performance.now();
    rows = await once();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const at = (p: number): number => ms[Math.min(ms.length - 1, Math.ceil((p / 100) * ms.length) - 1)]!;
  return { p50Ms: at(50), p99Ms: at(99), executions: ms.length, rows, statements: statements.length };
}

process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
const commands: BaselineCommand[] = [];
let wake: (() => void) | undefined;
process.on('message', (text: string) => {
  commands.push(JSON.parse(text) as BaselineCommand);
  wake?.();
});
for (;;) {
  if (commands.length === 0) await new Promise<void>((resolve) => (wake = resolve));
  const command = commands.shift()!;
  if (command.cmd === 'stop') break;
  try {
    const statements = command.cmd === 'problems' ? problemStatements(command) : await eventStatements(command);
    process.stdout.write(`${JSON.stringify(await time(statements, command.seconds))}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ error: (error as Error).message })}\n`);
  }
}
process.disconnect?.();
await store.close();
process.exit(0);
