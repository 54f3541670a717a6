/**
 * What a CLI command is: its words, arguments and options (with help text), how it turns the
 * parsed command line into one admin-API request, and how it shows the answer as text.
 * Commands are data; args.ts parses against them, help.ts describes them, main.ts runs them.
 */
import type { ApiRequest, Client, Failure } from './client.js';

export interface ArgSpec {
  name: string;
  description: string;
  /** 'id': a positive integer (checked before any request). */
  kind?: 'id';
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  description: string;
  /** Placeholder shown in help, e.g. 'name' → `--name <name>`. */
  value?: string;
  multiple?: boolean;
  required?: boolean;
  kind?: 'id';
}

export type OptionValue = string | boolean | string[] | undefined;

export interface CommandInput {
  args: Readonly<Record<string, string>>;
  options: Readonly<Record<string, OptionValue>>;
}

/** A request to send, or a usage error found while building it (e.g. invalid --config JSON). */
export type Prepared = { ok: true; request: ApiRequest } | { ok: false; usage: string };

export interface PrepareDeps {
  readFile: (path: string) => Promise<string>;
  /** Reads a file's bytes (an icon to upload); main.ts gives node:fs. */
  readBytes?: (path: string) => Promise<Uint8Array>;
  /** The clock, in ms, for a time given from now (`--expires 30d`); main.ts gives Date.now. */
  now?: () => number;
}

/** Text for a successful answer: `data` is the parsed JSON body (undefined for 204). */
export type Render = (data: unknown, input: CommandInput) => string;

/** What a command that runs its own requests works with. */
export interface RunContext {
  client: Client;
  input: CommandInput;
  /** The global --json flag. */
  json: boolean;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Ends a command that runs until interrupted; when absent, such a command listens for SIGINT. */
  interrupt?: AbortSignal;
}

/**
 * A command that is more than one request and one answer (every page of a list, a live stream):
 * it runs from `prepare`'s request and writes its own output. Undefined on success, else the
 * failure to report.
 */
export type Execute = (request: ApiRequest, ctx: RunContext) => Promise<Failure | undefined>;

export interface CommandSpec {
  /** Absent for a one-word command such as `ops whoami`. */
  verb?: string;
  summary: string;
  args?: ArgSpec[];
  options?: Record<string, OptionSpec>;
  /** Groups of options of which at most one may be given. */
  exclusive?: string[][];
  /** At least one of these options must be given (PATCH bodies need one property). */
  atLeastOne?: string[];
  prepare: (input: CommandInput, deps: PrepareDeps) => Prepared | Promise<Prepared>;
  render: Render;
  /** Runs the command in place of sending the prepared request and rendering its answer. */
  execute?: Execute;
}

export interface NounSpec {
  name: string;
  summary: string;
  commands: CommandSpec[];
}

// Small helpers for command files.

export const send = (method: ApiRequest['method'], path: string, body?: unknown): Prepared => ({
  ok: true,
  request: body === undefined ? { method, path } : { method, path, body },
});

export const usage = (message: string): Prepared => ({ ok: false, usage: message });

/** One path segment, encoded. */
export const seg = (value: string): string => encodeURIComponent(value);

export const str = (input: CommandInput, name: string): string | undefined => {
  const value = input.options[name];
  return typeof value === 'string' ? value : undefined;
};

export const strs = (input: CommandInput, name: string): string[] | undefined => {
  const value = input.options[name];
  return Array.isArray(value) ? value : undefined;
};

export const flag = (input: CommandInput, name: string): boolean => input.options[name] === true;

/** Id options are checked by args.ts, so the conversion cannot fail here. */
export const num = (input: CommandInput, name: string): number | undefined => {
  const value = str(input, name);
  return value === undefined ? undefined : Number(value);
};

export const nums = (input: CommandInput, name: string): number[] | undefined => strs(input, name)?.map(Number);

/** An object without its undefined properties, so optional fields are left out of bodies. */
export const defined = (record: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
