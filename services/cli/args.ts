/**
 * The command line as a value: help to show, a usage error (with the help of the level it
 * happened at), or a command with its checked arguments. Built on node:util parseArgs in its
 * lenient mode with tokens, so every error gets our own one-line message.
 */
import { parseArgs } from 'node:util';
import { baseUrlProblem } from './client.js';
import { commandHelp, GLOBAL_OPTIONS, nounHelp, topHelp } from './help.js';
import type { CommandInput, CommandSpec, NounSpec, OptionSpec, OptionValue } from './spec.js';
import { didYouMean } from './suggest.js';

export interface Globals {
  json: boolean;
  url?: string;
}

export type Parsed =
  | { kind: 'help'; text: string }
  | { kind: 'usage'; message: string; help: string }
  | { kind: 'command'; noun: NounSpec; command: CommandSpec; input: CommandInput; globals: Globals };

const isGlobalFlag = (arg: string): boolean => ['--json', '--help', '-h', '--url'].includes(arg) || arg.startsWith('--url=');

/**
 * Takes the first word (noun or verb) out of argv. Words come before the command's own
 * options; global flags may sit anywhere, so they are stepped over.
 */
function takeWord(argv: readonly string[]): { word?: string; rest: string[] } {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (!arg.startsWith('-')) return { word: arg, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
    if (!isGlobalFlag(arg)) break;
    if (arg === '--url' && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')) i++;
  }
  return { rest: [...argv] };
}

const wantsHelp = (argv: readonly string[]): boolean => {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
};

const isId = (value: string): boolean => /^[1-9][0-9]*$/.test(value) && Number.isSafeInteger(Number(value));
const quote = (value: string): string => JSON.stringify(value);

export function parseCommandLine(argv: readonly string[], nouns: readonly NounSpec[]): Parsed {
  const help = wantsHelp(argv);
  const first = takeWord(argv);
  if (first.word === undefined) {
    return help ? { kind: 'help', text: topHelp(nouns) } : { kind: 'usage', message: 'missing command', help: topHelp(nouns) };
  }
  const noun = nouns.find((n) => n.name === first.word);
  if (!noun) {
    const names = nouns.map((n) => n.name);
    const hint = didYouMean(first.word, names);
    return { kind: 'usage', message: `unknown command ${quote(first.word)}${hint}`, help: hint ? 'Run "ops --help" for every command.' : topHelp(nouns) };
  }

  let command: CommandSpec | undefined;
  let rest = first.rest;
  const direct = noun.commands.length === 1 && noun.commands[0]!.verb === undefined;
  if (direct) {
    command = noun.commands[0]!;
  } else {
    const second = takeWord(rest);
    if (second.word === undefined) {
      return help ? { kind: 'help', text: nounHelp(noun) } : { kind: 'usage', message: `missing subcommand for "${noun.name}"`, help: nounHelp(noun) };
    }
    command = noun.commands.find((c) => c.verb === second.word);
    if (!command) {
      const verbs = noun.commands.flatMap((c) => (c.verb ? [c.verb] : []));
      const hint = didYouMean(second.word, verbs, (verb) => quote(`${noun.name} ${verb}`));
      return {
        kind: 'usage',
        message: `unknown subcommand ${quote(`${noun.name} ${second.word}`)}${hint}`,
        help: hint ? `Run "ops ${noun.name} --help" for its subcommands.` : nounHelp(noun),
      };
    }
    rest = second.rest;
  }
  if (help) return { kind: 'help', text: commandHelp(noun, command) };

  const result = parseRest(rest, command);
  if (typeof result === 'string') return { kind: 'usage', message: result, help: commandHelp(noun, command) };
  return { kind: 'command', noun, command, ...result };
}

/** The command's arguments and options, or the message of the first usage error. */
function parseRest(rest: string[], command: CommandSpec): { input: CommandInput; globals: Globals } | string {
  const own = command.options ?? {};
  const all: Record<string, OptionSpec> = { ...own, ...GLOBAL_OPTIONS };
  const config = Object.fromEntries(Object.entries(all).map(([name, o]) => [name, { type: o.type, multiple: o.multiple ?? false, ...(name === 'help' ? { short: 'h' } : {}) }]));
  const { tokens, values, positionals } = parseArgs({ args: rest, options: config, strict: false, allowPositionals: true, tokens: true });

  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const spec = Object.hasOwn(all, token.name) ? all[token.name] : undefined;
    const name = `--${token.name}`;
    if (!spec) return `unknown option ${token.rawName}${token.rawName.startsWith('--') ? didYouMean(token.name, Object.keys(all), (name) => `--${name}`) : ''}`;
    if (spec.type === 'boolean' && token.value !== undefined) return `option ${name} takes no value`;
    if (spec.type === 'string') {
      if (token.value === undefined) return `option ${name} needs a value`;
      if (!token.inlineValue && token.value.startsWith('-')) return `option ${name} needs a value (write ${name}=${token.value} for one starting with "-")`;
    }
    if (!spec.multiple && seen.has(token.name)) return `option ${name} is given more than once`;
    seen.add(token.name);
  }

  const specs = command.args ?? [];
  if (positionals.length < specs.length) return `missing argument <${specs[positionals.length]!.name}>`;
  if (positionals.length > specs.length) return `unexpected argument ${quote(positionals[specs.length]!)}`;
  const args: Record<string, string> = {};
  for (const [i, spec] of specs.entries()) {
    const value = positionals[i]!;
    if (spec.kind === 'id' && !isId(value)) return `<${spec.name}> must be a positive integer, got ${quote(value)}`;
    args[spec.name] = value;
  }

  const options: Record<string, OptionValue> = {};
  for (const [name, spec] of Object.entries(own)) {
    const value = values[name] as OptionValue;
    if (value === undefined) {
      if (spec.required) return `missing option --${name}`;
      continue;
    }
    const bad = spec.kind === 'id' ? [value].flat().find((v) => typeof v !== 'string' || !isId(v)) : undefined;
    if (bad !== undefined) return `option --${name} must be a positive integer, got ${quote(String(bad))}`;
    options[name] = value;
  }
  for (const group of command.exclusive ?? []) {
    const given = group.filter((name) => options[name] !== undefined);
    if (given.length > 1) return `options ${given.map((n) => `--${n}`).join(' and ')} cannot be used together`;
  }
  if (command.atLeastOne && !command.atLeastOne.some((name) => options[name] !== undefined)) {
    return `give at least one of ${command.atLeastOne.map((n) => `--${n}`).join(', ')}`;
  }

  const url = values['url'];
  if (typeof url === 'string') {
    const problem = baseUrlProblem(url);
    if (problem) return `option --url ${problem}`;
  }
  return { input: { args, options }, globals: { json: values['json'] === true, ...(typeof url === 'string' ? { url } : {}) } };
}
