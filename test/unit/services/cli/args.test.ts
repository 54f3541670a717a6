import t from 'tap';
import { type Parsed, parseCommandLine } from '../../../../services/cli/args.js';
import { NOUNS } from '../../../../services/cli/commands/index.js';

const parse = (...argv: string[]): Parsed => parseCommandLine(argv, NOUNS);

/** The usage message; a line that parsed shows as `(help)` or `(command)` and fails the comparison. */
const usageOf = (argv: string[]): string => {
  const parsed = parse(...argv);
  return parsed.kind === 'usage' ? parsed.message : `(${parsed.kind})`;
};

const commandOf = (argv: string[]) => {
  const parsed = parse(...argv);
  if (parsed.kind !== 'command') throw new Error(`${argv.join(' ')}: ${parsed.kind === 'usage' ? parsed.message : 'help'}`);
  return parsed;
};

t.test('help: top level, per noun and per command, wherever --help or -h stands', async (t) => {
  for (const argv of [['--help'], ['-h'], ['--json', '--help']]) {
    const parsed = parse(...argv);
    t.equal(parsed.kind, 'help');
    t.match(parsed.kind === 'help' ? parsed.text : '', /^ops: .*\n[\s\S]*users create --name <name> \[options\]/);
  }
  const noun = parse('users', '--help');
  t.match(noun.kind === 'help' ? noun.text : '', /Usage: ops users <subcommand>/);
  for (const argv of [
    ['users', 'create', '--help'],
    ['users', 'create', '--name', 'x', '-h'],
    ['users', '--help', 'create'],
    ['users', 'create', '--bogus', '--help'],
  ]) {
    const parsed = parse(...argv);
    t.equal(parsed.kind, 'help', argv.join(' '));
    t.match(parsed.kind === 'help' ? parsed.text : '', /^Usage: ops users create --name <name> \[options\]\n[\s\S]*--work-group <id>/);
  }
  const whoami = parse('whoami', '--help');
  t.match(whoami.kind === 'help' ? whoami.text : '', /^Usage: ops whoami\n/);
  // After the option terminator --help is an argument, not a request for help.
  t.equal(parse('roles', 'delete', '--', '--help').kind, 'command');
});

t.test('every command has a summary and its own help', async (t) => {
  for (const noun of NOUNS) {
    for (const command of noun.commands) {
      const argv = [noun.name, ...(command.verb ? [command.verb] : []), '--help'];
      const parsed = parse(...argv);
      t.equal(parsed.kind, 'help', argv.join(' '));
      t.ok(command.summary.length > 0);
    }
  }
});

t.test('usage errors name the problem and carry the help of their level', async (t) => {
  const missing = parse();
  t.same(missing.kind === 'usage' && [missing.message, missing.help.startsWith('ops: ')], ['missing command', true]);
  const unknown = parse('bogus');
  t.same(unknown.kind === 'usage' && [unknown.message, unknown.help.startsWith('ops: ')], ['unknown command "bogus"', true]);
  const noVerb = parse('users');
  t.same(noVerb.kind === 'usage' && [noVerb.message, noVerb.help.startsWith('ops users:')], ['missing subcommand for "users"', true]);
  const badVerb = parse('users', 'bogus');
  t.same(badVerb.kind === 'usage' && [badVerb.message, badVerb.help.startsWith('ops users:')], ['unknown subcommand "users bogus"', true]);
  const badOption = parse('users', 'list', '--bogus');
  t.same(badOption.kind === 'usage' && [badOption.message, badOption.help.startsWith('Usage: ops users list')], ['unknown option --bogus', true]);
});

t.test('option errors', async (t) => {
  t.equal(usageOf(['users', 'list', '-x']), 'unknown option -x');
  t.equal(usageOf(['users', 'list', '--constructor']), 'unknown option --constructor');
  t.equal(usageOf(['users', 'list', '--name', 'a']), 'unknown option --name');
  t.equal(usageOf(['users', 'create', '--name']), 'option --name needs a value');
  t.match(usageOf(['users', 'create', '--name', '--json']), /^option --name needs a value \(write --name=--json/);
  t.equal(usageOf(['users', 'list', '--json=yes']), 'option --json takes no value');
  t.equal(usageOf(['users', 'create', '--name', 'a', '--name', 'b']), 'option --name is given more than once');
  t.equal(usageOf(['users', 'create']), 'missing option --name');
  t.equal(usageOf(['roles', 'put', 'ops']), 'missing option --right');
  t.equal(usageOf(['users', 'create', '--name', 'a', '--work-group', '1', '--work-group', 'x']), 'option --work-group must be a positive integer, got "x"');
  t.equal(usageOf(['work-groups', 'create', '--name', 'a', '--id', '0']), 'option --id must be a positive integer, got "0"');
  t.equal(usageOf(['work-groups', 'create', '--name', 'a', '--id=1.5']), 'option --id must be a positive integer, got "1.5"');
  t.equal(usageOf(['cmdb-systems', 'create', '--name', 'a', '--id', '99999999999999999999']), 'option --id must be a positive integer, got "99999999999999999999"');
  t.equal(usageOf(['users', 'update', '1', '--disable', '--enable']), 'options --disable and --enable cannot be used together');
  t.equal(usageOf(['streams', 'create', '--name', 'a', '--config', '{}', '--config-file', 'c.json']), 'options --config and --config-file cannot be used together');
  t.equal(usageOf(['users', 'update', '1']), 'give at least one of --name, --add-role, --remove-role, --role, --clear-roles, --disable, --enable');
  t.equal(usageOf(['ci-types', 'update', '1']), 'give at least one of --name, --description, --default, --icon, --clear-icon');
  t.equal(usageOf(['ci-types', 'update', '1', '--icon', '3', '--clear-icon']), 'options --icon and --clear-icon cannot be used together');
  t.equal(usageOf(['ci-types', 'create', '--name', 'a', '--icon', 'db']), 'option --icon must be a positive integer, got "db"');
  t.equal(usageOf(['streams', 'update', '1']), 'give at least one of --name, --config, --config-file');
});

t.test('argument errors', async (t) => {
  t.equal(usageOf(['users', 'get']), 'missing argument <id>');
  t.equal(usageOf(['tokens', 'revoke', '3']), 'missing argument <tokenId>');
  t.equal(usageOf(['users', 'list', 'extra']), 'unexpected argument "extra"');
  t.equal(usageOf(['whoami', 'extra']), 'unexpected argument "extra"');
  t.equal(usageOf(['users', 'get', '1', '2']), 'unexpected argument "2"');
  t.equal(usageOf(['users', 'get', 'abc']), '<id> must be a positive integer, got "abc"');
  t.equal(usageOf(['users', 'get', '--', '-1']), '<id> must be a positive integer, got "-1"');
  t.equal(usageOf(['tokens', 'revoke', '3', '0']), '<tokenId> must be a positive integer, got "0"');
});

t.test('global --url is checked', async (t) => {
  t.equal(usageOf(['users', 'list', '--url']), 'option --url needs a value');
  t.equal(usageOf(['users', 'list', '--url', 'localhost:8080']), 'option --url must be an http:// or https:// URL');
  t.equal(usageOf(['users', 'list', '--url', 'not a url']), 'option --url must be an http:// or https:// URL');
  t.equal(usageOf(['users', 'list', '--url', 'http://u:p@h']), 'option --url must not contain credentials (the token comes from OPS_TOKEN)');
  t.equal(usageOf(['users', 'list', '--url', 'http://h/?a=1']), 'option --url must not have a query or fragment');
});

t.test('a command line with globals anywhere, repeated options and inline values', async (t) => {
  const parsed = commandOf(['--json', 'users', '--url', 'http://h:1', 'create', '--name=alice', '--role', 'a', '--role', 'b', '--work-group', '2']);
  t.equal(parsed.noun.name, 'users');
  t.equal(parsed.command.verb, 'create');
  t.same(parsed.globals, { json: true, url: 'http://h:1' });
  t.same(parsed.input, { args: {}, options: { name: 'alice', role: ['a', 'b'], 'work-group': ['2'] } });

  const plain = commandOf(['tokens', 'revoke', '3', '7']);
  t.same(plain.globals, { json: false });
  t.same(plain.input.args, { userId: '3', tokenId: '7' });

  const dashed = commandOf(['ci-types', 'create', '--name=-odd-', '--description', 'x', '--default']);
  t.same(dashed.input.options, { name: '-odd-', description: 'x', default: true });

  const direct = commandOf(['whoami', '--json']);
  t.equal(direct.noun.name, 'whoami');
  t.same(direct.globals, { json: true });

  const role = commandOf(['roles', 'delete', '--', '--help']);
  t.same(role.input.args, { name: '--help' });
});
