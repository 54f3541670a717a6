/**
 * Shared set-up for the custom SLA report tests (spec 4.3, DESIGN §9): the problems kit plus SLA
 * templates, orders, polling and exports; a platform started with replaced parts or on a kept
 * data directory, and an SLA worker whose calculations a test can hold.
 */
import { rmSync } from 'node:fs';
import type { Part } from '../../../services/part.js';
import { createSlaWorkerPart } from '../../../services/sla-worker/sla-worker.part.js';
import type { Answer } from '../../support/http.js';
import { ADMIN_TOKEN, startTestPlatform } from '../../support/platform.js';
import { ADMIN_API, type User } from '../cmdb/cmdb-kit.js';
import { ProblemsKit } from '../problems/problems-kit.js';

export const SLA = '/api/public/sm/v1/sla';
export const SLA_TEMPLATES_ADMIN = '/api/admin/v1/sla/templates';

export class SlaKit extends ProblemsKit {
  /** A data directory given to a later platform, which TestPlatform.stop() leaves behind. */
  private keptDataDir: string | undefined;

  /** Like start(), with `replace` parts and, when given, on an existing data directory. */
  async startWith(options: { replace?: readonly Part[]; dataDir?: string } = {}): Promise<void> {
    this.p = await startTestPlatform({ now: () => this.clock, ...options });
    const me = await this.p.api('GET', `${ADMIN_API}/me`);
    this.admin = { id: me.body.user.id, name: me.body.user.name };
    const types = await this.p.api('GET', `${ADMIN_API}/config-item-types`);
    const def = types.body.find((x: { isDefault: boolean }) => x.isDefault);
    this.defaultType = { id: def.id, name: def.name, description: def.description };
  }

  /**
   * Stops the platform, keeping its data directory, and starts a new one on it with `replace`
   * (the normal parts when none). `whileStopping` runs once the stop has begun.
   */
  async restart(options: { replace?: readonly Part[]; whileStopping?: () => void } = {}): Promise<void> {
    const dataDir = this.p.dataDir;
    const stopping = this.p.stop(false);
    options.whileStopping?.();
    await stopping;
    this.keptDataDir = dataDir;
    await this.startWith({ dataDir, ...(options.replace ? { replace: options.replace } : {}) });
  }

  override async stop(): Promise<void> {
    await super.stop();
    if (this.keptDataDir) rmSync(this.keptDataDir, { recursive: true, force: true });
  }

  async template(body: Record<string, unknown>): Promise<{ id: number; name: string }> {
    const created = await this.api('POST', SLA_TEMPLATES_ADMIN, { json: { name: this.uniq('sla'), period: 'ThisMonth', ownerType: 'User', userId: this.admin.id, ...body } });
    if (created.status !== 201) throw new Error(`template: ${created.status} ${created.text}`);
    return { id: created.body.id, name: created.body.name };
  }

  /** A user with `roles` (by default `sla-reader`: base-system.sla.read) in `workGroupIds`, with a token. */
  async reader(workGroupIds: number[] = [], roles: string[] = ['sla-reader']): Promise<User> {
    const name = this.uniq('sla-user');
    const created = await this.api('POST', `${ADMIN_API}/users`, { json: { name, roles, workGroupIds } });
    if (created.status !== 201) throw new Error(`user: ${created.status} ${created.text}`);
    const issued = await this.api('POST', `${ADMIN_API}/users/${created.body.id}/tokens`, { json: {} });
    if (issued.status !== 201) throw new Error(`token: ${issued.status} ${issued.text}`);
    return { id: created.body.id, name, token: issued.body.token };
  }

  order(body: unknown, token?: string): Promise<Answer> {
    return this.api('POST', `${SLA}/ordered`, { json: body, ...(token ? { token } : {}) });
  }

  /** Orders a report and answers its id (throws unless 200). */
  async ordered(body: unknown, token?: string): Promise<string> {
    const answer = await this.order(body, token);
    if (answer.status !== 200) throw new Error(`order: ${answer.status} ${answer.text}`);
    return answer.body.id;
  }

  /** Polls until the report leaves Pending (or 20 s). */
  async finished(id: string, token?: string): Promise<any> {
    for (let i = 0; i < 200; i++) {
      const got = await this.api('GET', `${SLA}/ordered/${id}`, token ? { token } : {});
      if (got.status !== 200) throw new Error(`poll: ${got.status} ${got.text}`);
      if (got.body.status !== 'Pending') return got.body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`report ${id} still Pending after 20 s`);
  }

  exportOf(id: string, query: string, token?: string): Promise<Answer> {
    return this.api('GET', `${SLA}/ordered/${id}/export${query}`, token ? { token } : {});
  }

  /** The export's body as bytes (the Answer decodes it as text, which a workbook does not survive). */
  async exportBytes(id: string, query: string, token = ADMIN_TOKEN): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
    const response = await fetch(`${this.p.base}${SLA}/ordered/${id}/export${query}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
  }
}

/** One held calculation: `reached` resolves with the report id once the worker waits on it. */
export interface Hold {
  reached: Promise<string>;
  release(): void;
  fail(error: Error): void;
}

/**
 * An SLA worker part whose next calculations can be held: `hold()` arms a gate the next job
 * waits on before its calculation. A report held once waits on the same gate on every later
 * delivery, so a failed gate keeps failing it.
 */
export class SlaWorkerGate {
  readonly part: Part = createSlaWorkerPart({ beforeCalculation: (id) => this.before(id) });
  private readonly armed: Array<{ gate: Promise<void>; reach: (id: string) => void }> = [];
  private readonly byReport = new Map<string, Promise<void>>();

  hold(): Hold {
    let release!: () => void;
    let fail!: (error: Error) => void;
    let reach!: (id: string) => void;
    const gate = new Promise<void>((resolve, reject) => {
      release = resolve;
      fail = reject;
    });
    gate.catch(() => undefined); // a gate failed before it is reached is no unhandled rejection
    const reached = new Promise<string>((resolve) => (reach = resolve));
    this.armed.push({ gate, reach });
    return { reached, release, fail };
  }

  private async before(reportId: string): Promise<void> {
    let gate = this.byReport.get(reportId);
    if (!gate) {
      const next = this.armed.shift();
      if (!next) return;
      gate = next.gate;
      this.byReport.set(reportId, gate);
      next.reach(reportId);
    }
    await gate;
  }
}

/** Rows of a CSV text (RFC 4180 quoting; lines end with \n). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else if (c !== '\r') cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}
