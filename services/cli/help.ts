/** Help texts, generated from the command specs so they cannot drift from the parser. */
import type { ArgSpec, CommandSpec, NounSpec, OptionSpec } from './spec.js';

export const DEFAULT_URL = 'http://localhost:8080';

export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: "Print the API's JSON answer as is (pretty-printed)" },
  url: { type: 'string', value: 'url', description: `Platform base URL (default: $OPS_URL, else ${DEFAULT_URL})` },
  help: { type: 'boolean', description: 'Show help' },
};

const ENVIRONMENT = [
  ['OPS_URL', `Platform base URL (default ${DEFAULT_URL})`],
  ['OPS_TOKEN', 'Your personal API token (falls back to OPS_ADMIN_TOKEN)'],
] as const;

/** Two aligned columns, indented. */
function columns(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(0, ...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd()).join('\n');
}

const optionLabel = (name: string, o: OptionSpec): string => `${name === 'help' ? '-h, ' : ''}--${name}${o.type === 'string' ? ` <${o.value ?? 'value'}>` : ''}`;

const optionText = (o: OptionSpec): string => o.description + (o.required ? ' (required)' : '') + (o.multiple ? ' (repeatable)' : '');

const argLabel = (a: ArgSpec): string => `<${a.name}>`;

/** `users create --name <name>` — words, arguments and required options. */
export function commandLine(noun: NounSpec, c: CommandSpec): string {
  const required = Object.entries(c.options ?? {}).filter(([, o]) => o.required);
  const optional = Object.entries(c.options ?? {}).filter(([, o]) => !o.required);
  return [
    noun.name,
    ...(c.verb ? [c.verb] : []),
    ...(c.args ?? []).map(argLabel),
    ...required.map(([name, o]) => optionLabel(name, o) + (o.multiple ? '...' : '')),
    ...(optional.length > 0 ? ['[options]'] : []),
  ].join(' ');
}

const globalsSection = (): string => `Global options:\n${columns(Object.entries(GLOBAL_OPTIONS).map(([name, o]) => [optionLabel(name, o), o.description]))}`;

export function topHelp(nouns: readonly NounSpec[]): string {
  const rows = nouns.flatMap((noun) => noun.commands.map((c) => [commandLine(noun, c), c.summary] as const));
  return `${[
    'ops: manage the platform through its admin API (/api/admin/v1); problems and events come from its public API.',
    'Usage: ops <command> [<subcommand>] [arguments] [options]',
    `Commands:\n${columns(rows)}`,
    globalsSection(),
    `Environment:\n${columns(ENVIRONMENT)}`,
    'Output is an aligned table unless --json is given. Exit status: 0 success, 1 API error, 2 usage error.\n' +
      'Run "ops <command> <subcommand> --help" for the options of one command.',
  ].join('\n\n')}\n`;
}

export function nounHelp(noun: NounSpec): string {
  const rows = noun.commands.map((c) => [commandLine(noun, c), c.summary] as const);
  return `${[
    `ops ${noun.name}: ${noun.summary}`,
    `Usage: ops ${noun.name} <subcommand> [arguments] [options]`,
    `Subcommands:\n${columns(rows)}`,
    globalsSection(),
    `Run "ops ${noun.name} <subcommand> --help" for the options of one subcommand.`,
  ].join('\n\n')}\n`;
}

export function commandHelp(noun: NounSpec, c: CommandSpec): string {
  const sections = [`Usage: ops ${commandLine(noun, c)}`, c.summary];
  if (c.args && c.args.length > 0) sections.push(`Arguments:\n${columns(c.args.map((a) => [argLabel(a), a.description]))}`);
  const options = Object.entries(c.options ?? {});
  if (options.length > 0) sections.push(`Options:\n${columns(options.map(([name, o]) => [optionLabel(name, o), optionText(o)]))}`);
  const notes = (c.exclusive ?? []).map((g) => `${g.map((n) => `--${n}`).join(' and ')} cannot be used together.`);
  if (c.atLeastOne) notes.push(`Give at least one of ${c.atLeastOne.map((n) => `--${n}`).join(', ')}.`);
  if (notes.length > 0) sections.push(notes.join('\n'));
  sections.push(globalsSection());
  return `${sections.join('\n\n')}\n`;
}
