/** SLA templates on the bare control model (pure): who reads what, the spec 2.11 form, the slice's index, local times and dates. */
import t from 'tap';
import { publicTemplate } from '../../../../../schemas/sla-template.schema.js';
import { canReadTemplate, templatesReadableBy } from '../../../../../services/control-plane/sla/sla-access.js';
import { isLocalDate, localMinutes } from '../../../../../services/control-plane/sla/sla-template-input.js';
import type { SlaTemplateRecord } from '../../../../../services/control-plane/sla/sla-templates.slice.js';
import { createControlModel } from '../../../../../services/control-plane/slices.js';
import type { PlatformModel } from '../../../../../services/control-plane/model.js';

const at = '2026-01-01T00:00:00.000Z';
const common = { description: '', period: 'ThisMonth' as const, timeZone: 'UTC', createdAt: at, updatedAt: at };
const single = (id: number, owner: { userId: number } | { workGroupId: number }): SlaTemplateRecord => ({
  id,
  name: `t${id}`,
  ...common,
  ...('userId' in owner
    ? { ownerType: 'User' as const, userId: owner.userId, workGroupId: null }
    : { ownerType: 'WorkGroup' as const, userId: null, workGroupId: owner.workGroupId }),
  type: 'Single',
  configItems: [{ id: 1, weight: 1, withDescendants: false }],
  priorities: [1, 2],
  calendar: null,
  excludeMaintenance: true,
  target: null,
});

function model(): PlatformModel {
  const m = createControlModel();
  const multi: SlaTemplateRecord = {
    id: 4,
    name: 'm',
    ...common,
    ownerType: 'WorkGroup',
    userId: null,
    workGroupId: 20,
    type: 'Multi',
    templates: [
      { id: 1, weight: 1 },
      { id: 2, weight: 3 },
    ],
  };
  m.load(
    new Map<string, unknown>([
      ['user:1', { id: 1, name: 'alice', roles: ['sla-reader'], disabled: false, createdAt: at }],
      ['user:2', { id: 2, name: 'bob', roles: ['sla-reader'], disabled: false, createdAt: at }],
      ['workgroup:10', { id: 10, name: 'Network', memberIds: [1] }],
      ['workgroup:20', { id: 20, name: 'Servers', memberIds: [2] }],
      ['sla-template:3', single(3, { workGroupId: 10 })],
      ['sla-template:1', single(1, { userId: 1 })],
      ['sla-template:2', single(2, { userId: 2 })],
      ['sla-template:4', multi],
    ]),
    1,
  );
  return m;
}

t.test('a user reads the templates they own and those of their workgroups, sorted by id', async (t) => {
  const m = model();
  t.same(
    templatesReadableBy(m, { userId: 1, admin: false }).map((x) => x.id),
    [1, 3],
  );
  t.same(
    templatesReadableBy(m, { userId: 2, admin: false }).map((x) => x.id),
    [2, 4],
  );
  t.same(templatesReadableBy(m, { userId: 99, admin: false }), []);
});

t.test('an admin reads every template', async (t) => {
  const m = model();
  t.same(
    templatesReadableBy(m, { userId: 99, admin: true }).map((x) => x.id),
    [1, 2, 3, 4],
  );
  t.ok(canReadTemplate(m, { userId: 99, admin: true }, m.slices.slaTemplates.templates.get(2)!));
  t.notOk(canReadTemplate(m, { userId: 1, admin: false }, m.slices.slaTemplates.templates.get(2)!));
});

t.test('publicTemplate: the spec 2.11 form, userspace 1 and no manager', async (t) => {
  const m = model();
  t.same(publicTemplate(m, m.slices.slaTemplates.templates.get(3)!), {
    id: 3,
    type: 'Single',
    name: 't3',
    description: '',
    period: 'ThisMonth',
    ownerType: 'WorkGroup',
    userId: null,
    workGroup: { id: 10, userspaceId: 1, name: 'Network', managerId: null },
  });
  t.same(publicTemplate(m, m.slices.slaTemplates.templates.get(1)!).workGroup, null);
  t.equal(publicTemplate(m, m.slices.slaTemplates.templates.get(1)!).userId, 1);
});

t.test('the slice knows which Multi templates list a Single one, through changes and deletes', async (t) => {
  const m = model();
  t.same(m.slices.slaTemplates.multisUsing(2), [4]);
  const multi = m.slices.slaTemplates.templates.get(4)!;
  m.applyEntry({ revision: 2, changes: [{ key: 'sla-template:4', value: { ...multi, templates: [{ id: 1, weight: 1 }] } }] });
  t.same(m.slices.slaTemplates.multisUsing(2), []);
  t.same(m.slices.slaTemplates.multisUsing(1), [4]);
  m.applyEntry({ revision: 3, changes: [{ key: 'sla-template:4', value: null }] });
  t.same(m.slices.slaTemplates.multisUsing(1), []);
  t.equal(m.slices.slaTemplates.byName('t1')?.id, 1);
});

t.test('local times: HH:mm from 00:00, 24:00 only as an end', async (t) => {
  t.equal(localMinutes('00:00', false), 0);
  t.equal(localMinutes('23:59', false), 23 * 60 + 59);
  t.equal(localMinutes('24:00', true), 1440);
  t.equal(localMinutes('24:00', false), undefined);
  for (const bad of ['24:01', '12:60', '7:00', '07-00', '']) t.equal(localMinutes(bad, true), undefined, bad);
});

t.test('local dates: real calendar days only', async (t) => {
  for (const good of ['2026-01-01', '2028-02-29', '2026-12-31']) t.ok(isLocalDate(good), good);
  for (const bad of ['2026-02-29', '2026-13-01', '2026-00-10', '2026-1-1', '01.01.2026']) t.notOk(isLocalDate(bad), bad);
});
