/**
 * GET …/config-items/{parentId}/children (issue #32, the console's tree): the top level, the
 * children of a CI by name in keyset pages, what a caller may see of both, search and label
 * listings with their paths, and the refusals.
 */
import t from 'tap';
import { BASIC_READ, CIS, isProblem, isUnauthorised, Kit, type Named, type User } from './cmdb-kit.js';

const k = new Kit();
let wg: Named;
let member: User;
t.before(async () => {
  await k.start();
  ({ wg, user: member } = await k.team('tree'));
});
t.teardown(() => k.stop());

interface Item {
  id: number;
  name: string;
  childCount: number;
  configItemType: Named;
  state?: { value: string };
  path?: Named[];
}
interface Page {
  items: Item[];
  nextCursor: string | null;
  total: number;
}

async function page(parentId: number, query = '', token?: string): Promise<Page> {
  const answer = await k.api('GET', `${CIS}/${parentId}/children${query}`, token ? { token } : {});
  if (answer.status !== 200) throw new Error(`children of ${parentId}: ${answer.status} ${answer.text}`);
  return answer.body as Page;
}

/** Every page, following nextCursor. */
async function all(parentId: number, query: string, token?: string): Promise<{ items: Item[]; pages: number }> {
  const items: Item[] = [];
  let pages = 0;
  let cursor: string | null = null;
  do {
    const sep = query ? '&' : '?';
    const next: Page = await page(parentId, `${query}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    items.push(...next.items);
    cursor = next.nextCursor;
    pages++;
  } while (cursor);
  return { items, pages };
}

t.test('children by name without case, then id, in keyset pages; each with its visible child count', async (t) => {
  const root = await k.ci({ name: k.uniq('tree-root'), ownerWorkGroup: { id: wg.id } });
  const names = Array.from({ length: 250 }, (_, i) => `${i % 2 ? 'Node' : 'node'}-${String(i).padStart(3, '0')}`);
  const made: Named[] = [];
  for (const name of names) made.push(await k.ci({ name, parent: { id: root.id } }));
  await k.ci({ name: 'grandchild', parent: { id: made[0]!.id } });

  const { items, pages } = await all(root.id, '?limit=100');
  t.equal(pages, 3, '250 children in pages of 100');
  t.same(
    items.map((i) => i.name),
    [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    'ordered by name without case',
  );
  t.equal(new Set(items.map((i) => i.id)).size, 250, 'no CI twice');
  t.equal(items.find((i) => i.id === made[0]!.id)?.childCount, 1, 'its child counted');
  t.equal((await page(root.id, '?limit=1')).total, 250, 'total over all pages');

  const top = await all(0, '?limit=1000');
  t.ok(
    top.items.some((i) => i.id === root.id && i.childCount === 251 - 1),
    'the root at the top level with its children',
  );
  t.notOk(
    top.items.some((i) => i.id === made[0]!.id),
    'a child is not at the top level',
  );
});

t.test('a caller sees what it may: a ChildrenTree grant puts the children at its top level', async (t) => {
  const other = await k.team('tree-other');
  const hidden = await k.ci({ name: k.uniq('hidden-root'), ownerWorkGroup: { id: wg.id } });
  const shown = await k.ci({ name: k.uniq('shown-child'), parent: { id: hidden.id } });
  await k.ci({ name: k.uniq('unshared-root'), ownerWorkGroup: { id: wg.id } });
  await k.grant(hidden.id, other.wg.id, 'ChildrenTree', [BASIC_READ]);

  const top = await page(0, '', other.user.token);
  t.same(
    top.items.map((i) => i.id),
    [shown.id],
    'only the child, at the top level',
  );
  const refused = await k.api('GET', `${CIS}/${hidden.id}/children`, { token: other.user.token });
  isProblem(t, refused, 403, 'forbidden');
  t.ok(
    (await page(0, '', member.token)).items.some((i) => i.id === hidden.id),
    'the owner member sees the root',
  );
});

t.test('search and label list the matching CIs anywhere below, each with its path', async (t) => {
  const root = await k.ci({ name: k.uniq('site'), ownerWorkGroup: { id: wg.id } });
  const rack = await k.ci({ name: k.uniq('rack'), parent: { id: root.id } });
  const db = await k.ci({ name: 'Billing-DB-42', parent: { id: rack.id }, labels: { env: 'prod' } });
  await k.ci({ name: 'billing-web-42', parent: { id: rack.id }, labels: { env: 'test' } });

  const found = await page(0, '?search=billing-db-4');
  t.same(
    found.items.map((i) => i.id),
    [db.id],
    'case-insensitive substring',
  );
  t.same(
    found.items[0]!.path,
    [
      { id: root.id, name: root.name },
      { id: rack.id, name: rack.name },
    ],
    'its ancestors, top first',
  );
  t.same(
    (await page(root.id, '?label=env%3Dprod')).items.map((i) => i.id),
    [db.id],
    'label with a value, below the parent',
  );
  t.equal((await page(root.id, '?label=env')).total, 2, 'label without a value');
  t.equal((await page(root.id, '?label=env&search=web-42')).total, 1, 'both must match');
  t.equal((await page(rack.id, '?search=site')).total, 0, 'only below the parent');
});

t.test('includeState adds each CI’s state', async (t) => {
  const root = await k.ci({ name: k.uniq('stateful'), ownerWorkGroup: { id: wg.id } });
  const listed = await page(0, `?search=${root.name}&includeState=true`);
  t.same(listed.items[0]!.state, { value: 'Unknown', valueUnderMaintenance: 'Unknown' });
  t.notOk('state' in (await page(0, `?search=${root.name}`)).items[0]!, 'absent unless asked');
});

t.test('400 on a bad parent id, cursor or limit; 404 on an unknown parent; 401', async (t) => {
  isProblem(t, await k.api('GET', `${CIS}/x/children`), 400, 'bad-request', /Invalid parent CI id/, '/parentId');
  isProblem(t, await k.api('GET', `${CIS}/0/children?cursor=nonsense`), 400, 'validation', undefined, '/cursor');
  isProblem(t, await k.api('GET', `${CIS}/0/children?limit=1001`), 400, 'validation', undefined, '/limit');
  isProblem(t, await k.api('GET', `${CIS}/999999/children`), 404, 'not-found', /CI 999999 not found/);
  await isUnauthorised(t, k, 'GET', `${CIS}/0/children`);
});
