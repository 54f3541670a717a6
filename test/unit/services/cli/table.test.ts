import t from 'tap';
import { renderIssued } from '../../../../services/cli/commands/tokens.js';
import { whoami } from '../../../../services/cli/commands/whoami.js';
import { done, list, one } from '../../../../services/cli/render.js';
import { align, cell, keyValue, printable, table } from '../../../../services/cli/table.js';

const noInput = { args: {}, options: {} };

t.test('cells: nothing as -, arrays joined with commas, objects as compact JSON', async (t) => {
  t.equal(cell(null), '-');
  t.equal(cell(undefined), '-');
  t.equal(cell([]), '-');
  t.equal(cell([1, 2, 3]), '1, 2, 3');
  t.equal(cell(['a', { b: 1 }]), 'a, {"b":1}');
  t.equal(cell({ parser: { type: 'xml' } }), '{"parser":{"type":"xml"}}');
  t.equal(cell(true), 'true');
  t.equal(cell(0), '0');
  t.equal(cell(''), '');
});

t.test('control characters from the API cannot reach the terminal', async (t) => {
  t.equal(printable('a\nb\tc\rd'), 'a\\nb\\tc\\rd');
  t.equal(printable('\u001b[31mred'), '\\x1b[31mred');
  t.equal(printable('\u009b2J'), '\\x9b2J');
  t.equal(cell(['x\ny']), 'x\\ny');
  t.equal(keyValue({ 'k\u0007': 'v' }), 'k\\x07  v\n');
});

t.test('align pads every column but the last, two spaces apart, without trailing blanks', async (t) => {
  t.equal(
    align([
      ['ID', 'NAME', 'X'],
      ['10', 'a', ''],
      ['2', 'longer', 'z'],
    ]),
    'ID  NAME    X\n10  a\n2   longer  z\n',
  );
});

t.test('table: headers in order, one line per item', async (t) => {
  const users = [
    { id: 1, name: 'admin', roles: ['admin'], workGroupIds: [], disabled: false },
    { id: 12, name: 'alice', roles: ['ops', 'sla'], workGroupIds: [1, 2], disabled: true },
  ];
  t.equal(
    table(users, { ID: 'id', NAME: 'name', ROLES: 'roles', 'WORK GROUPS': 'workGroupIds', DISABLED: 'disabled' }),
    ['ID  NAME   ROLES     WORK GROUPS  DISABLED', '1   admin  admin     -            false', '12  alice  ops, sla  1, 2         true', ''].join('\n'),
  );
  t.equal(table([], { ID: 'id', NAME: 'name' }), 'ID  NAME\n');
  t.equal(table(['odd'], { ID: 'id' }), 'ID\n-\n');
});

t.test('key/value: one line per property in the object order', async (t) => {
  t.equal(keyValue({ id: 3, name: 'syslog', config: { routeLabel: 'net' }, expiresAt: null }), 'id         3\nname       syslog\nconfig     {"routeLabel":"net"}\nexpiresAt  -\n');
  t.equal(keyValue({}), '');
});

t.test('renderers: list, one (with omissions), done, and fallbacks for unexpected shapes', async (t) => {
  t.equal(list({ ID: 'id' })([{ id: 1 }], noInput), 'ID\n1\n');
  t.equal(list({ ID: 'id' })({ id: 1, name: 'n' }, noInput), 'id    1\nname  n\n');
  t.equal(one('key')({ id: 1, key: 'secret' }, noInput), 'id  1\n');
  t.equal(one()([{ a: 1 }], noInput), 'a\n1\n');
  t.equal(one()(undefined, noInput), '');
  t.equal(done((i) => `Deleted user ${i.args['id']}.`)(undefined, { args: { id: '4' }, options: {} }), 'Deleted user 4.\n');
});

t.test('an issued token: details without the secret, then the secret once, set apart', async (t) => {
  const text = renderIssued({ id: 5, userId: 2, name: 'laptop', expiresAt: null, token: 's3cr3t' }, noInput);
  t.equal(text.split('s3cr3t').length, 2, 'the secret appears exactly once');
  t.match(text, /^id {9}5\nuserId {5}2\nname {7}laptop\nexpiresAt {2}-\n\nToken secret \(shown only now[^\n]*\n\n {2}s3cr3t\n/);
});

t.test('whoami shows the user and its token, token fields prefixed', async (t) => {
  const render = whoami.commands[0]!.render;
  const text = render({ user: { id: 1, name: 'admin', roles: ['admin'] }, token: { id: 1, userId: 1, name: 'bootstrap', expiresAt: null } }, noInput);
  t.equal(
    text,
    ['id               1', 'name             admin', 'roles            admin', 'token.id         1', 'token.name       bootstrap', 'token.expiresAt  -', ''].join('\n'),
  );
});
