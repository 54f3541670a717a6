/**
 * Issue #37: `ops tokens issue --expires` takes a time from now (30d, 12h, 2w), an ISO 8601 date
 * (its 00:00 UTC) or a date-time with an offset; anything else is a usage error that says those
 * forms, before any request, instead of the API's regular expression.
 */
import t from 'tap';
import { parseCommandLine } from '../../../../../services/cli/args.js';
import { expiresAt } from '../../../../../services/cli/commands/tokens.js';
import { NOUNS } from '../../../../../services/cli/commands/index.js';
import { run } from '../../../../../services/cli/main.js';
import type { Prepared } from '../../../../../services/cli/spec.js';

const NOW = Date.parse('2026-05-04T09:15:00.000Z');

async function prepare(...argv: string[]): Promise<Prepared> {
  const parsed = parseCommandLine(argv, NOUNS);
  if (parsed.kind !== 'command') throw new Error(`${argv.join(' ')} did not parse`);
  return parsed.command.prepare(parsed.input, { readFile: async () => '', now: () => NOW });
}

t.test('--expires takes a time from now in hours, days or weeks', async (t) => {
  t.equal(expiresAt('12h', NOW), '2026-05-04T21:15:00.000Z');
  t.equal(expiresAt('30d', NOW), '2026-06-03T09:15:00.000Z');
  t.equal(expiresAt('2w', NOW), '2026-05-18T09:15:00.000Z');
  t.same(await prepare('tokens', 'issue', '2', '--expires', '30d'), {
    ok: true,
    request: { method: 'POST', path: '/users/2/tokens', body: { expiresAt: '2026-06-03T09:15:00.000Z' } },
  });
});

t.test('--expires takes an ISO 8601 date (its 00:00 UTC) or a date-time with an offset, sent as given', async (t) => {
  t.equal(expiresAt('2030-01-31', NOW), '2030-01-31T00:00:00.000Z');
  t.equal(expiresAt('2030-01-31T09:00:00+01:00', NOW), '2030-01-31T09:00:00+01:00');
  t.equal(expiresAt('2030-01-31T09:00Z', NOW), '2030-01-31T09:00Z');
});

t.test('--expires refuses anything else: words, days that do not exist, a date-time without its offset, a zero or unit-less time', async (t) => {
  for (const text of ['tomorrow', 'never', '2030-02-30', '2030-02-30T10:00:00Z', '2030-13-01', '2030-01-31T09:00:00', '2030-01-31T25:00Z', '0d', '30', '30m', '100000d', ' 30d'])
    t.equal(expiresAt(text, NOW), undefined, text);
});

t.test('--expires tomorrow is a usage error that says the forms accepted, exit 2, no request', async (t) => {
  let err = '';
  let requests = 0;
  const code = await run(
    ['tokens', 'issue', '2', '--expires', 'tomorrow'],
    { OPS_TOKEN: 'test-token-0123456789abcdef' },
    {
      stdout: { write: () => undefined },
      stderr: { write: (s: string) => (err += s) },
      fetch: async () => {
        requests++;
        return new Response('{}');
      },
    },
  );
  t.same([code, requests], [2, 0]);
  t.equal(
    err.split('\n')[0],
    'error: option --expires takes a time from now (30d, 12h, 2w), an ISO 8601 date (2030-01-31, meaning 00:00 UTC) or an ISO 8601 date-time with an offset (2030-01-31T09:00:00+01:00); got "tomorrow"',
  );
  t.notMatch(err, /\^\\d/, 'no regular expression');
});
