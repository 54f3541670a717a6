/**
 * Issue #37: the CLI suggests the nearest command. A mistyped command, subcommand or option is
 * answered with the nearest word (edit distance, or the start of one word only) and where the help
 * is, rather than the whole help with no hint; a word near nothing still gets the help of its level.
 */
import t from 'tap';
import { parseCommandLine } from '../../../../services/cli/args.js';
import { NOUNS } from '../../../../services/cli/commands/index.js';
import { run } from '../../../../services/cli/main.js';
import { editDistance, nearest } from '../../../../services/cli/suggest.js';

const usageOf = (...argv: string[]) => {
  const parsed = parseCommandLine(argv, NOUNS);
  return parsed.kind === 'usage' ? { message: parsed.message, help: parsed.help.split('\n')[0] } : parsed.kind;
};

t.test('the CLI suggests the nearest command: a letter swapped, missing, extra or wrong', async (t) => {
  t.same(usageOf('tirggers', 'list'), { message: 'unknown command "tirggers"; did you mean "triggers"?', help: 'Run "ops --help" for every command.' });
  t.same(usageOf('trigers'), { message: 'unknown command "trigers"; did you mean "triggers"?', help: 'Run "ops --help" for every command.' });
  t.same(usageOf('event'), { message: 'unknown command "event"; did you mean "events"?', help: 'Run "ops --help" for every command.' });
  t.same(usageOf('whoamj'), { message: 'unknown command "whoamj"; did you mean "whoami"?', help: 'Run "ops --help" for every command.' });
  t.same(usageOf('sla'), { message: 'unknown command "sla"; did you mean "sla-templates"?', help: 'Run "ops --help" for every command.' }, 'the start of one command');
});

t.test('the CLI suggests the nearest subcommand, named with its command', async (t) => {
  t.same(usageOf('users', 'lst'), { message: 'unknown subcommand "users lst"; did you mean "users list"?', help: 'Run "ops users --help" for its subcommands.' });
  t.same(usageOf('receivers', 'delet', '3'), {
    message: 'unknown subcommand "receivers delet"; did you mean "receivers delete"?',
    help: 'Run "ops receivers --help" for its subcommands.',
  });
});

t.test('the CLI suggests the nearest option of the command', async (t) => {
  t.same(usageOf('tokens', 'issue', '2', '--expire', '30d'), { message: 'unknown option --expire; did you mean --expires?', help: 'Usage: ops tokens issue <userId> [options]' });
  t.same(usageOf('users', 'list', '--jsn'), { message: 'unknown option --jsn; did you mean --json?', help: 'Usage: ops users list' });
});

t.test('a word near nothing gets no suggestion, and the help of its level as before', async (t) => {
  t.same(usageOf('bogus'), {
    message: 'unknown command "bogus"',
    help: 'ops: manage the platform through its admin API (/api/admin/v1); problems and events come from its public API.',
  });
  t.same(usageOf('users', 'bogus'), { message: 'unknown subcommand "users bogus"', help: 'ops users: Users of the platform and their roles' });
  t.same(usageOf('users', 'list', '--constructor'), { message: 'unknown option --constructor', help: 'Usage: ops users list' });
});

t.test('near is one edit for a word of up to 4 letters, two for a longer one; only the nearest are named', async (t) => {
  t.equal(editDistance('tirggers', 'triggers'), 1, 'a swap is one edit');
  t.equal(editDistance('kitten', 'sitting'), 3);
  t.same(nearest('rle', ['roles', 'rule']), ['rule']);
  t.same(nearest('rols', ['roles', 'tokens']), ['roles']);
  t.same(nearest('ab', ['ac', 'ad', 'abc']), ['ac', 'ad', 'abc'], 'ties are all named, in order');
  t.same(nearest('tokns', ['token', 'tokens']), ['tokens'], 'one edit wins over two');
  t.same(nearest('xyz', ['tokens', 'roles']), []);
  t.same(nearest('re', ['receivers', 'roles']), [], 'a start of two letters is too short to mean one word');
  t.same(nearest('x'.repeat(65), ['x'.repeat(65)]), [], 'a word past 64 characters is not compared');
});

t.test('end to end: the suggestion and where the help is go to stderr, exit 2, no request', async (t) => {
  let out = '';
  let err = '';
  let requests = 0;
  const code = await run(
    ['trigers', 'list'],
    { OPS_TOKEN: 'test-token-0123456789abcdef' },
    {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (err += s) },
      fetch: async () => {
        requests++;
        return new Response('{}');
      },
    },
  );
  t.same([code, out, err, requests], [2, '', 'error: unknown command "trigers"; did you mean "triggers"?\n\nRun "ops --help" for every command.\n', 0]);
});
