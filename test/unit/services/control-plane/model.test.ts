import t from 'tap';
import { ControlModel, type Slice } from '../../../../services/control-plane/model.js';

class Notes implements Slice {
  readonly kinds = ['note'];
  readonly notes = new Map<string, unknown>();
  apply(key: string, _kind: string, value: unknown): void {
    if (value === null) this.notes.delete(key);
    else this.notes.set(key, value);
  }
}

t.test('entries apply in revision order; old ones are skipped, a gap is reported', async (t) => {
  const model = new ControlModel({ notes: new Notes() });
  t.equal(model.applyEntry({ revision: 1, changes: [{ key: 'note:a', value: 1 }] }), 'applied');
  t.equal(model.applyEntry({ revision: 1, changes: [{ key: 'note:a', value: 99 }] }), 'skipped');
  t.equal(model.applyEntry({ revision: 3, changes: [{ key: 'note:b', value: 3 }] }), 'gap');
  t.equal(model.revision, 1);
  t.same([...model.slices.notes.notes], [['note:a', 1]]);
  t.equal(model.applyEntry({ revision: 2, changes: [{ key: 'note:a', value: null }] }), 'applied');
  t.equal(model.slices.notes.notes.size, 0);
});

t.test('a snapshot loads every record and the revision', async (t) => {
  const model = new ControlModel({ notes: new Notes() });
  model.load(
    new Map<string, unknown>([
      ['note:x', 1],
      ['seq:note', 7],
      ['unknown:1', {}],
    ]),
    42,
  );
  t.equal(model.revision, 42);
  t.equal(model.slices.notes.notes.get('note:x'), 1);
  t.equal(model.sequences.current('note'), 7);
});

t.test('sequences hand out increasing ids past ids clients chose', async (t) => {
  const model = new ControlModel({});
  t.same(model.sequences.next('ci'), { id: 1, change: { key: 'seq:ci', value: 1 } });
  model.applyEntry({ revision: 1, changes: [{ key: 'seq:ci', value: 5 }] });
  t.equal(model.sequences.next('ci').id, 6);
  t.same(model.sequences.bump('ci', 10), { key: 'seq:ci', value: 10 });
  t.equal(model.sequences.bump('ci', 3), undefined);
});

t.test('two slices cannot own one kind', async (t) => {
  t.throws(() => new ControlModel({ a: new Notes(), b: new Notes() }), /two slices claim record kind "note"/);
});
