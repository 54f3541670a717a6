/** The interval questions of DESIGN §8 as pure functions of the model. */
import t from 'tap';
import { maintenanceIntervals, mergeIntervals, modesCovering } from '../../../../../services/control-plane/maintenance/maintenance-coverage.js';
import { buildModel, H, modeRecord, T0 } from '../../../../support/model-fixture.js';

// root 1 ▸ 2 ▸ 3 ▸ 4; 5 is another root.
const chain = { 1: null, 2: 1, 3: 2, 4: 3, 5: null };
const at = (h: number) => T0 + h * H;

t.test('intervals are clipped to [from, to), sorted, and overlapping or touching ones merged', async (t) => {
  const model = buildModel(chain, [
    modeRecord(1, at(10), at(12), [{ ciId: 5 }]),
    modeRecord(2, at(11), at(14), [{ ciId: 5 }]),
    modeRecord(3, at(14), at(15), [{ ciId: 5 }]),
    modeRecord(4, at(2), at(3), [{ ciId: 5 }]),
    modeRecord(5, at(20), at(30), [{ ciId: 5 }]),
  ]);
  t.same(maintenanceIntervals(model, 5, at(0), at(24)), [
    { start: at(2), end: at(3) },
    { start: at(10), end: at(15) },
    { start: at(20), end: at(24) },
  ]);
  t.same(maintenanceIntervals(model, 5, at(3), at(10)), [], 'end exclusive at both edges');
  t.same(maintenanceIntervals(model, 1, at(0), at(24)), [], 'another CI is not covered');
});

t.test('modesCovering: start inclusive, end exclusive', async (t) => {
  const model = buildModel(chain, [modeRecord(1, at(10), at(12), [{ ciId: 5 }]), modeRecord(2, at(11), at(14), [{ ciId: 5 }])]);
  t.same(modesCovering(model, 5, at(10) - 1), []);
  t.same(modesCovering(model, 5, at(10)), [1]);
  t.same(modesCovering(model, 5, at(11)), [1, 2]);
  t.same(modesCovering(model, 5, at(12)), [2]);
  t.same(modesCovering(model, 5, at(14)), []);
});

t.test('CiAndChildren covers descendants down to its depth; Ci only the CI itself', async (t) => {
  const model = buildModel(chain, [
    modeRecord(1, at(0), at(1), [{ ciId: 1, scope: 'CiAndChildren', depth: 1 }]),
    modeRecord(2, at(0), at(1), [{ ciId: 1, scope: 'CiAndChildren', depth: -1 }]),
    modeRecord(3, at(0), at(1), [{ ciId: 1, scope: 'CiAndChildren', depth: 0 }]),
    modeRecord(4, at(0), at(1), [{ ciId: 2, scope: 'Ci' }]),
    modeRecord(5, at(0), at(1), [{ ciId: 2, scope: 'CiAndChildren', depth: 2 }]),
  ]);
  const m = at(0) + 1;
  t.same(modesCovering(model, 1, m), [1, 2, 3], 'the CI itself at every depth');
  t.same(modesCovering(model, 2, m), [1, 2, 4, 5], 'depth 1 reaches the child');
  t.same(modesCovering(model, 3, m), [2, 5], 'depth 1 stops above the grandchild; -1 and 2 reach it');
  t.same(modesCovering(model, 4, m), [2, 5], 'depth 2 from CI 2 reaches CI 4');
  t.same(modesCovering(model, 5, m), []);
});

t.test('the hierarchy is read when asked: a CI moved under a covered parent is covered from then on', async (t) => {
  const model = buildModel(chain, [modeRecord(1, at(0), at(10), [{ ciId: 1, scope: 'CiAndChildren', depth: -1 }])]);
  t.same(modesCovering(model, 5, at(1)), []);
  const moved = { ...model.slices.cmdb.cis.get(5)!, parentId: 4 };
  model.applyEntry({ revision: 2, changes: [{ key: 'ci:5', value: moved }] });
  t.same(modesCovering(model, 5, at(1)), [1]);
  t.same(maintenanceIntervals(model, 5, at(0), at(24)), [{ start: at(0), end: at(10) }]);
});

t.test('a canceled mode covers nothing; a completed one covers up to its early end', async (t) => {
  const model = buildModel(chain, [modeRecord(1, at(10), at(20), [{ ciId: 5 }], { canceledAt: at(5) }), modeRecord(2, at(30), at(33), [{ ciId: 5 }], { completedAt: at(33) })]);
  t.same(maintenanceIntervals(model, 5, at(0), at(48)), [{ start: at(30), end: at(33) }]);
  t.same(modesCovering(model, 5, at(15)), []);
});

t.test('a scope entry ended early, and one added late, count with their own intervals', async (t) => {
  const model = buildModel(chain, [
    modeRecord(1, at(0), at(10), [
      { ciId: 5, start: at(0), end: at(4) },
      { ciId: 3, start: at(6), end: at(10) },
      { ciId: 5, start: at(8), end: at(10) },
    ]),
  ]);
  t.same(maintenanceIntervals(model, 5, at(0), at(24)), [
    { start: at(0), end: at(4) },
    { start: at(8), end: at(10) },
  ]);
  t.same(maintenanceIntervals(model, 3, at(0), at(24)), [{ start: at(6), end: at(10) }]);
  t.same(modesCovering(model, 5, at(5)), [], 'the gap between the two entries');
});

t.test('an edit re-indexes the mode; a deleted mode is forgotten', async (t) => {
  const model = buildModel(chain, [modeRecord(1, at(0), at(10), [{ ciId: 5 }])]);
  model.applyEntry({ revision: 2, changes: [{ key: 'maint:1', value: modeRecord(1, at(0), at(10), [{ ciId: 4 }]) }] });
  t.same(modesCovering(model, 5, at(1)), []);
  t.same(modesCovering(model, 4, at(1)), [1]);
  model.applyEntry({ revision: 3, changes: [{ key: 'maint:1', value: null }] });
  t.same(modesCovering(model, 4, at(1)), []);
  t.equal(model.slices.maintenance.modes.size, 0);
});

t.test('mergeIntervals handles empty, single, nested and unsorted input', async (t) => {
  t.same(mergeIntervals([]), []);
  t.same(mergeIntervals([{ start: 1, end: 2 }]), [{ start: 1, end: 2 }]);
  t.same(
    mergeIntervals([
      { start: 5, end: 9 },
      { start: 1, end: 3 },
      { start: 6, end: 7 },
      { start: 3, end: 4 },
    ]),
    [
      { start: 1, end: 4 },
      { start: 5, end: 9 },
    ],
  );
});
