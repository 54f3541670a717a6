/**
 * The CI hierarchy as a caller sees it (services/control-plane/cmdb/ci-tree.ts), on a small
 * forest worked by hand: the top level with hidden parents, children in name order without case
 * then id, search and label listings below a parent, paging positions, and visible paths.
 */
import t from 'tap';
import { CmdbSlice } from '../../../../../services/control-plane/cmdb/cmdb.slice.js';
import type { CiRecord, Labels } from '../../../../../services/control-plane/cmdb/cmdb.types.js';
import { positionOf, startAfter, treeListing, visibleChildCount, visiblePath } from '../../../../../services/control-plane/cmdb/ci-tree.js';

function ci(id: number, name: string, parentId: number | null, labels: Labels | null = null): CiRecord {
  return {
    id,
    name,
    description: '',
    parentId,
    ownerWorkGroupId: 1,
    typeId: 1,
    labels,
    cmdbSystemId: -1,
    cmdbLinks: [],
    grants: [],
    influentialIds: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    createdBy: 1,
    createdByName: 'a',
    updatedAt: '2026-01-01T00:00:00.000Z',
    updatedBy: 1,
    updatedByName: 'a',
  };
}

//   1 site                          6 Beta        8 alpha
//   ├─ 2 rack                       └─ 7 gamma
//   │  ├─ 4 db-1 {env: prod}
//   │  └─ 5 DB-0 {env: [prod, test]}
//   └─ 3 Rack (the same name as 2 without case)
const cmdb = new CmdbSlice();
for (const record of [
  ci(1, 'site', null),
  ci(2, 'rack', 1),
  ci(3, 'Rack', 1),
  ci(4, 'db-1', 2, { env: 'prod' }),
  ci(5, 'DB-0', 2, { env: ['prod', 'test'] }),
  ci(6, 'Beta', null),
  ci(7, 'gamma', 6),
  ci(8, 'alpha', null),
])
  cmdb.apply(`ci:${record.id}`, 'ci', record);

const all = () => true;
const hiding =
  (...hidden: number[]) =>
  (id: number) =>
    !hidden.includes(id);

t.test('the top level: roots, and CIs whose parent the caller may not see; by name without case', async (t) => {
  t.same(treeListing(cmdb, all, { parentId: 0 }).ids, [8, 6, 1]);
  t.same(treeListing(cmdb, hiding(6), { parentId: 0 }).ids, [8, 7, 1], 'gamma comes up when Beta is hidden');
  t.same(treeListing(cmdb, hiding(1), { parentId: 0 }).ids, [8, 6, 2, 3], 'both racks when the site is hidden');
});

t.test('children: visible ones, equal names without case by id', async (t) => {
  t.same(treeListing(cmdb, all, { parentId: 1 }).ids, [2, 3]);
  t.same(treeListing(cmdb, all, { parentId: 2 }).ids, [5, 4], 'DB-0 before db-1');
  t.same(treeListing(cmdb, hiding(5), { parentId: 2 }).ids, [4]);
  t.equal(visibleChildCount(cmdb, hiding(5), 2), 1);
});

t.test('search and label: matches anywhere below the parent', async (t) => {
  t.same(treeListing(cmdb, all, { parentId: 0, search: 'DB' }).ids, [5, 4]);
  t.same(treeListing(cmdb, all, { parentId: 3, search: 'db' }).ids, [], 'not below Rack');
  t.same(treeListing(cmdb, all, { parentId: 1, label: { name: 'env', value: 'test' } }).ids, [5], 'a value among a list');
  t.same(treeListing(cmdb, all, { parentId: 0, label: { name: 'env' }, search: '-1' }).ids, [4], 'both must hold');
  t.same(treeListing(cmdb, all, { parentId: 6, label: { name: 'env' } }).ids, [], 'the label below another parent');
});

t.test('pages start after a position; a position between entries still finds its place', async (t) => {
  const listing = treeListing(cmdb, all, { parentId: 0 });
  t.equal(startAfter(cmdb, listing, undefined), 0);
  t.equal(startAfter(cmdb, listing, positionOf(cmdb, 8)), 1);
  t.equal(startAfter(cmdb, listing, positionOf(cmdb, 1)), 3, 'after the last: the end');
  t.equal(startAfter(cmdb, listing, { key: 'b', id: 0 }), 1, 'a CI renamed or deleted since: the next name');
});

t.test('paths: visible ancestors, top first', async (t) => {
  t.same(visiblePath(cmdb, all, 4), [
    { id: 1, name: 'site' },
    { id: 2, name: 'rack' },
  ]);
  t.same(visiblePath(cmdb, hiding(1), 4), [{ id: 2, name: 'rack' }]);
});
