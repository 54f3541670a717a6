/**
 * A small, realistic installation for the console's end-to-end tests and its screenshots
 * (bench/console-screenshots.ts): three workgroups owning a data centre, a production cluster and
 * a shop service, linked by influence (router → switch → web server → checkout, database →
 * checkout); a stream with two triggers and the records that open problems on them (one
 * acknowledged, one on a CI in maintenance); maintenance modes (under way, planned, recurring);
 * an SLA template with a target; a user of each kind. Everything through the public and admin
 * APIs as the admin, on the kit's clock.
 */
import { ADMIN_API, type Named, type User } from '../integration/cmdb/cmdb-kit.js';
import { MAINT, type ProblemsKit } from '../integration/problems/problems-kit.js';

export interface Ci {
  id: number;
  name: string;
}

export interface ConsoleData {
  groups: { network: Named; platform: Named; shop: Named };
  /** In Network, with the maintenance, SLA and stream readers' roles. */
  alice: User;
  cis: Record<'dc' | 'router1' | 'router2' | 'switchA' | 'switchB' | 'cluster' | 'web1' | 'web2' | 'db1' | 'shop' | 'checkout' | 'catalogue', Ci>;
  stream: { id: number; key: string };
  triggers: { cpu: Named; link: Named };
  /** Ids of the open problems, by CI name. */
  problems: Map<string, string>;
  slaTemplate: Named;
}

const MINUTE = 60_000;

async function must(answer: Promise<{ status: number; text: string; body: any }>, status: number, what: string): Promise<any> {
  const a = await answer;
  if (a.status !== status) throw new Error(`${what}: expected ${status}, got ${a.status} ${a.text}`);
  return a.body;
}

export async function seedConsoleData(k: ProblemsKit): Promise<ConsoleData> {
  const network = await k.workGroup('Network');
  const platform = await k.workGroup('Platform');
  const shop = await k.workGroup('Storefront');
  const aliceUser = await must(
    k.api('POST', `${ADMIN_API}/users`, { json: { name: 'alice', roles: ['maintenance-writer', 'sla-reader', 'stream-reader'], workGroupIds: [network.id, platform.id] } }),
    201,
    'alice',
  );
  const aliceToken = await must(k.api('POST', `${ADMIN_API}/users/${aliceUser.id}/tokens`, { json: { name: 'laptop' } }), 201, 'token of alice');
  await must(k.api('POST', `${ADMIN_API}/users`, { json: { name: 'bob', roles: [], workGroupIds: [shop.id] } }), 201, 'bob');

  const type = async (name: string, description: string): Promise<number> => (await k.ciType(name, description)).id;
  const site = await type('Data centre', 'A site with racks and uplinks');
  const router = await type('Router', 'A layer-3 router');
  const switchType = await type('Switch', 'A top-of-rack switch');
  const cluster = await type('Cluster', 'A group of servers');
  const server = await type('Server', 'A physical or virtual host');
  const service = await type('Service', 'A business service');

  const ci = async (name: string, typeId: number, extra: Record<string, unknown>): Promise<Ci> => {
    const body = await k.ci({ name, configItemType: { id: typeId }, ...extra });
    return { id: body.id, name: body.name };
  };
  const dc = await ci('dc-frankfurt', site, { ownerWorkGroup: { id: network.id }, description: 'Frankfurt data centre, hall 2', labels: { env: 'prod', region: 'eu-central' } });
  const router1 = await ci('core-router-1', router, { parent: { id: dc.id }, labels: { env: 'prod', vendor: 'juniper' } });
  const router2 = await ci('core-router-2', router, { parent: { id: dc.id }, labels: { env: 'prod', vendor: 'juniper' } });
  const switchA = await ci('switch-a1', switchType, { parent: { id: dc.id }, labels: { env: 'prod', rack: 'a1' } });
  const switchB = await ci('switch-b1', switchType, { parent: { id: dc.id }, labels: { env: 'prod', rack: 'b1' } });
  const prod = await ci('cluster-prod', cluster, { ownerWorkGroup: { id: platform.id }, description: 'Production web and database hosts', labels: { env: 'prod' } });
  const web1 = await ci('web-01', server, { parent: { id: prod.id }, labels: { env: 'prod', role: 'web' } });
  const web2 = await ci('web-02', server, { parent: { id: prod.id }, labels: { env: 'prod', role: 'web' } });
  const db1 = await ci('db-01', server, { parent: { id: prod.id }, labels: { env: 'prod', role: 'database' } });
  const shopCi = await ci('shop', service, { ownerWorkGroup: { id: shop.id }, description: 'The online shop', labels: { env: 'prod', tier: 'gold' } });
  const checkout = await ci('checkout', service, { parent: { id: shopCi.id }, labels: { env: 'prod' } });
  const catalogue = await ci('catalogue', service, { parent: { id: shopCi.id }, labels: { env: 'prod' } });

  // Influence: the influencing CI's trouble lowers the dependent's health.
  const influences: Array<[Ci, Ci]> = [
    [switchA, router1],
    [switchA, router2],
    [switchB, router1],
    [web1, switchA],
    [web2, switchB],
    [db1, switchA],
    [checkout, web1],
    [checkout, web2],
    [checkout, db1],
    [catalogue, web2],
  ];
  for (const [dependent, influencing] of influences) {
    await must(
      k.api('POST', `/api/public/sm/v2/rsm/config-items/${dependent.id}/influentials`, { json: { id: influencing.id } }),
      200,
      `influence ${influencing.name} → ${dependent.name}`,
    );
  }
  // The shop's team may read the hosts its service runs on.
  await k.grant(prod.id, shop.id, 'Tree', ['base-system.rsm.read']);

  const created = await must(k.api('POST', `${ADMIN_API}/streams`, { json: { name: 'syslog' } }), 201, 'stream');
  const stream = { id: created.id as number, key: created.key as string };
  const cpu = await k.trigger(stream.id, { name: 'CPU load high', description: 'CPU above 90 % for 5 minutes' });
  const link = await k.trigger(stream.id, {
    name: 'Interface down',
    description: 'An uplink reported down',
    match: [{ field: 'check', op: 'equals', value: 'link' }],
    priority: { value: 1 },
    tags: [{ id: 2, name: 'network', colorName: 'blue' }],
    influence: { value: 100, maxInfluence: true },
  });

  // A mode under way on db-01 (its problem goes to the maintenance tab), one planned, one recurring.
  const now = k.clock;
  const iso = (ms: number): string => new Date(ms).toISOString();
  await must(
    k.api('POST', MAINT, {
      json: {
        title: 'db-01 kernel patch',
        dateStart: iso(now - 30 * MINUTE),
        dateEnd: iso(now + 90 * MINUTE),
        configItems: [{ id: db1.id, scope: 'Ci' }],
        labels: { change: 'CHG-2041' },
      },
    }),
    201,
    'mode under way',
  );
  await must(
    k.api('POST', MAINT, {
      json: {
        title: 'Router firmware upgrade',
        dateStart: iso(now + 3 * 86_400_000),
        dateEnd: iso(now + 3 * 86_400_000 + 4 * 60 * MINUTE),
        configItems: [{ id: dc.id, scope: 'CiAndChildren', depth: -1 }],
      },
    }),
    201,
    'planned mode',
  );
  await must(
    k.api('POST', MAINT, {
      json: {
        title: 'Sunday patch window',
        dateStart: '2026-01-04T02:00:00+01:00',
        dateEnd: '2026-01-04T04:00:00+01:00',
        configItems: [{ id: prod.id, scope: 'CiAndChildren', depth: -1 }],
        recurrence: { rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone: 'Europe/Berlin' },
      },
    }),
    201,
    'recurring mode',
  );

  const at = (minutesAgo: number): string => iso(now - minutesAgo * MINUTE);
  await k.post(stream.key, [
    { '@timestamp': at(95), check: 'link', host: switchA.name, interface: 'xe-0/0/1', status: 'down' },
    { '@timestamp': at(42), check: 'cpu', host: web1.name, severity: 'critical', value: 97.2 },
    { '@timestamp': at(38), check: 'cpu', host: db1.name, severity: 'major', value: 93.5 },
    { '@timestamp': at(25), check: 'cpu', host: catalogue.name, severity: 'minor', value: 91.0 },
    { '@timestamp': at(12), check: 'cpu', host: web2.name, severity: 'major', value: 94.8, ticket: 'INC-7731' },
    { '@timestamp': at(6), check: 'cpu', host: web1.name, severity: 'critical', value: 98.9 },
    { '@timestamp': at(3), check: 'disk', host: web1.name, value: 71 },
  ]);
  const open = await must(k.api('GET', '/api/public/sm/v1/problems?limit=100'), 200, 'open problems');
  const problems = new Map<string, string>((open.items as Array<{ id: string; configItem: { name: string } }>).map((p) => [p.configItem.name, p.id]));
  const onWeb2 = problems.get(web2.name);
  if (!onWeb2) throw new Error('no problem on web-02');
  await must(k.api('POST', `/api/public/sm/v1/problems/${onWeb2}/acknowledge`, { json: { comment: 'Looking at the PHP workers' } }), 200, 'acknowledge');

  const template = await must(
    k.api('POST', '/api/admin/v1/sla/templates', {
      json: {
        type: 'Single',
        name: 'Production hosts',
        description: 'Web and database hosts, office hours',
        period: 'ThisMonth',
        ownerType: 'WorkGroup',
        workGroupId: platform.id,
        configItems: [{ id: prod.id, withDescendants: true }],
        target: 99.9,
      },
    }),
    201,
    'SLA template',
  );

  return {
    groups: { network, platform, shop },
    alice: { id: aliceUser.id, name: aliceUser.name, token: aliceToken.token },
    cis: { dc, router1, router2, switchA, switchB, cluster: prod, web1, web2, db1, shop: shopCi, checkout, catalogue },
    stream,
    triggers: { cpu, link },
    problems,
    slaTemplate: { id: template.id, name: template.name },
  };
}
