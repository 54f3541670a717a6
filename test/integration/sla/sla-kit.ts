/**
 * Shared set-up for the custom SLA report tests (spec 4.3, DESIGN §9): the problems kit plus SLA
 * templates, orders, polling and exports.
 */
import type { Answer } from '../../support/http.js';
import { ProblemsKit } from '../problems/problems-kit.js';

export const SLA = '/api/public/sm/v1/sla';
export const SLA_TEMPLATES_ADMIN = '/api/admin/v1/sla/templates';

export class SlaKit extends ProblemsKit {
  async template(body: Record<string, unknown>): Promise<{ id: number; name: string }> {
    const created = await this.api('POST', SLA_TEMPLATES_ADMIN, { json: { name: this.uniq('sla'), period: 'ThisMonth', ownerType: 'User', userId: this.admin.id, ...body } });
    if (created.status !== 201) throw new Error(`template: ${created.status} ${created.text}`);
    return { id: created.body.id, name: created.body.name };
  }

  order(body: unknown, token?: string): Promise<Answer> {
    return this.api('POST', `${SLA}/ordered`, { json: body, ...(token ? { token } : {}) });
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
}
