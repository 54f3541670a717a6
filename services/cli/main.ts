/**
 * The `ops` CLI: `run` takes the arguments, the environment and where to write, and returns the
 * exit status (0 success, 1 API error, 2 usage error). It never exits the process itself, so
 * tests run it in-process; services/cli/ops.js is the executable that calls it.
 */
import { readFile } from 'node:fs/promises';
import { parseCommandLine } from './args.js';
import { baseUrlProblem, createClient, formatFailure, isTokenShaped } from './client.js';
import { NOUNS } from './commands/index.js';
import { commandHelp, DEFAULT_URL } from './help.js';

export interface Io {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Defaults to reading a UTF-8 file (for --config-file). */
  readFile?: (path: string) => Promise<string>;
  /** Defaults to reading a file's bytes (for an icon's PNG). */
  readBytes?: (path: string) => Promise<Uint8Array>;
  /** Ends a command that runs until interrupted (events tail); by default SIGINT does. */
  interrupt?: AbortSignal;
  /** Defaults to Date.now (for `--expires 30d`). */
  now?: () => number;
}

export type Env = Readonly<Record<string, string | undefined>>;

export const EXIT = { ok: 0, apiError: 1, usage: 2 } as const;

/** The token and where it came from; OPS_TOKEN wins over OPS_ADMIN_TOKEN. */
function findToken(env: Env): { name: string; token: string } | undefined {
  for (const name of ['OPS_TOKEN', 'OPS_ADMIN_TOKEN']) {
    const token = env[name]?.trim();
    if (token) return { name, token };
  }
  return undefined;
}

export async function run(argv: readonly string[], env: Env, io: Io): Promise<number> {
  const fail = (message: string, code: number): number => {
    io.stderr.write(`error: ${message}\n`);
    return code;
  };
  const parsed = parseCommandLine(argv, NOUNS);
  if (parsed.kind === 'help') {
    io.stdout.write(parsed.text);
    return EXIT.ok;
  }
  if (parsed.kind === 'usage') return fail(`${parsed.message}\n\n${parsed.help}`.trimEnd(), EXIT.usage);
  const { noun, command, input, globals } = parsed;

  const prepared = await command.prepare(input, {
    readFile: io.readFile ?? ((path) => readFile(path, 'utf8')),
    readBytes: io.readBytes ?? ((path) => readFile(path)),
    now: io.now ?? Date.now,
  });
  if (!prepared.ok) return fail(`${prepared.usage}\n\n${commandHelp(noun, command)}`.trimEnd(), EXIT.usage);

  const baseUrl = globals.url ?? (env['OPS_URL']?.trim() || DEFAULT_URL);
  const urlProblem = globals.url === undefined ? baseUrlProblem(baseUrl) : undefined;
  if (urlProblem) return fail(`OPS_URL ${urlProblem}`, EXIT.usage);
  const found = findToken(env);
  if (!found) return fail('no API token: set OPS_TOKEN to your personal token (or OPS_ADMIN_TOKEN to the admin token)', EXIT.usage);
  // The value is never echoed, not even in this message.
  if (!isTokenShaped(found.token)) return fail(`${found.name} does not hold a token (allowed characters: A-Z a-z 0-9 . _ ~ + / = -)`, EXIT.usage);

  const client = createClient({ baseUrl, token: found.token }, io.fetch ?? fetch);
  if (command.execute) {
    const failure = await command.execute(prepared.request, { client, input, json: globals.json, stdout: io.stdout, stderr: io.stderr, interrupt: io.interrupt });
    if (failure) io.stderr.write(formatFailure(failure));
    return failure ? EXIT.apiError : EXIT.ok;
  }
  const result = await client.send(prepared.request);
  if (!result.ok) {
    io.stderr.write(formatFailure(result.failure));
    return EXIT.apiError;
  }
  if (globals.json) {
    if (result.data !== undefined) io.stdout.write(`${JSON.stringify(result.data, null, 2)}\n`);
  } else {
    io.stdout.write(command.render(result.data, input));
  }
  return EXIT.ok;
}
