/**
 * The `collectd` preset: what collectd's write_http plugin sends, one record per value list.
 *
 * - `Format "Command"` (text/plain, one line per value list, CRLF):
 *   `PUTVAL <host>/<plugin>[-<plugin instance>]/<type>[-<type instance>] [interval=<s>] [meta:<key>="<v>"] <time>:<v1>[:<v2>…]`
 *   as collectd's own parser reads it (src/utils/cmds/putval.c, parse_option.c, common.c
 *   parse_identifier): the identifier is quoted only when it holds a space, a tab, `"` or `\`
 *   (escaped by `\`); plugin and type instances begin after the first `-`; the interval is
 *   decimal seconds (`2.000`); the time is decimal epoch seconds (`1795613691.990`) or `N`
 *   (now: the record is dated by its receipt); every value follows, `U` or a non-finite value
 *   as null (as collectd's JSON writes it).
 * - `Format "JSON"` (an array of value lists, one record each under the framing `elements`):
 *   `{values, dstypes, dsnames, time, interval, host, plugin, plugin_instance, type, type_instance[, meta]}`.
 *
 * Both give the same record:
 *   `{"@timestamp", host, plugin, plugin_instance, type, type_instance, interval, values: {<ds>: v}, dstypes: {<ds>: kind}[, meta]}`
 * The values are named by their data sources: those the value list names (JSON), else those of
 * collectd's types.db for its type (`load` → shortterm, midterm, longterm; `if_octets` → rx, tx;
 * most types one `value`), else `value0`…`valueN` (a type of the sender's own types.db), then
 * without `dstypes`. Counters beyond 2^53 lose their last digits, as any JSON number read here.
 */
import { deadLetter, type Outcome, ok } from '../outcome.js';
import { COLLECTD_TYPES, type DataSource } from './collectd-types.js';
import { type Fields, floatOf, put } from './preset-fields.js';
import { decimalToNs, NS_PER_SECOND, secondsToNs, timestampOfNs } from './preset-time.js';

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t';

interface Token {
  text: string;
  /** Index after the token and the spaces behind it. */
  next: number;
}

/** A word or a quoted string at `at`, as collectd's parse_string reads it; a string reason when malformed. */
function tokenAt(line: string, at: number): Token | string {
  let i = at;
  let text = '';
  if (line[i] === '"') {
    let from = ++i;
    while (i < line.length && line[i] !== '"') {
      if (line[i] === '\\') {
        text += line.slice(from, i);
        from = ++i;
      }
      i++;
    }
    if (i >= line.length) return `a quoted string opened at column ${at + 1} is not closed`;
    text += line.slice(from, i);
    i++;
    if (i < line.length && !isSpace(line[i])) return `column ${i + 1}: a space must follow a quoted string`;
  } else {
    const start = i;
    while (i < line.length && !isSpace(line[i])) i++;
    text = line.slice(start, i);
  }
  while (isSpace(line[i])) i++;
  return { text, next: i };
}

const OPTION_KEY = /^[A-Za-z0-9_:]+=/;
/** Values one value list may hold: collectd's own types have at most 5; a line of thousands is no value list. */
const MAX_VALUES = 1024;

export interface Identifier {
  host: string;
  plugin: string;
  plugin_instance: string;
  type: string;
  type_instance: string;
}

/** `host/plugin[-instance]/type[-instance]`, split as collectd's parse_identifier does. */
export function parseIdentifier(text: string): Identifier | undefined {
  const first = text.indexOf('/');
  const second = first < 0 ? -1 : text.indexOf('/', first + 1);
  if (first <= 0 || second < 0) return undefined;
  const plugin = text.slice(first + 1, second);
  const type = text.slice(second + 1);
  const pDash = plugin.indexOf('-');
  const tDash = type.indexOf('-');
  const id: Identifier = {
    host: text.slice(0, first),
    plugin: pDash < 0 ? plugin : plugin.slice(0, pDash),
    plugin_instance: pDash < 0 ? '' : plugin.slice(pDash + 1),
    type: tDash < 0 ? type : type.slice(0, tDash),
    type_instance: tDash < 0 ? '' : type.slice(tDash + 1),
  };
  return id.plugin && id.type ? id : undefined;
}

/** The data sources of `count` values of `type`: types.db's when it has that many, else value0…. */
function dataSources(type: string, count: number): { names: string[]; kinds?: readonly DataSource[] } {
  const known = COLLECTD_TYPES.get(type);
  if (known && known.length === count) return { names: known.map((ds) => ds.name), kinds: known };
  return { names: Array.from({ length: count }, (_, i) => `value${i}`) };
}

function valueRecord(
  timestamp: string | undefined,
  id: Identifier,
  interval: number | undefined,
  values: ReadonlyArray<number | null>,
  names: readonly string[],
  kinds: ReadonlyArray<string> | undefined,
  meta: unknown,
): Fields {
  const record: Fields = {};
  if (timestamp !== undefined) record['@timestamp'] = timestamp;
  Object.assign(record, id);
  if (interval !== undefined) record['interval'] = interval;
  const named: Fields = {};
  values.forEach((v, i) => put(named, names[i]!, v));
  record['values'] = named;
  if (kinds) {
    const dstypes: Fields = {};
    kinds.forEach((kind, i) => put(dstypes, names[i]!, kind));
    record['dstypes'] = dstypes;
  }
  if (meta !== undefined) record['meta'] = meta;
  return record;
}

/** One `PUTVAL` line of `Format "Command"` as a record, or why it is not one. */
export function parseCollectdCommand(line: string): Outcome<Fields> {
  let at = 0;
  while (isSpace(line[at])) at++;
  const command = tokenAt(line, at);
  if (typeof command === 'string') return deadLetter(command);
  if (command.text.toUpperCase() !== 'PUTVAL') return deadLetter(`not a PUTVAL command (it begins ${JSON.stringify(line.slice(0, 20))})`);
  const ident = tokenAt(line, command.next);
  if (typeof ident === 'string') return deadLetter(ident);
  const id = parseIdentifier(ident.text);
  if (!id) return deadLetter(`the identifier ${JSON.stringify(ident.text.slice(0, 200))} is not host/plugin[-instance]/type[-instance]`);

  let interval: number | undefined;
  let meta: Fields | undefined;
  const lists: string[] = [];
  at = ident.next;
  while (at < line.length) {
    const key = OPTION_KEY.exec(line.slice(at, at + 256))?.[0];
    const token = tokenAt(line, key ? at + key.length : at);
    if (typeof token === 'string') return deadLetter(token);
    at = token.next;
    if (!key) {
      lists.push(token.text);
      continue;
    }
    if (lists.length > 0) return deadLetter(`the option ${key.slice(0, -1)} comes after the values`);
    const name = key.slice(0, -1);
    if (name.toLowerCase() === 'interval') {
      interval = floatOf(token.text) ?? undefined;
      if (interval === undefined || interval <= 0) return deadLetter(`interval=${token.text} is not a positive number of seconds`);
    } else if (name.toLowerCase().startsWith('meta:')) {
      meta ??= {};
      put(meta, name.slice(5), token.text);
    } else return deadLetter(`unknown option ${name} (PUTVAL takes interval= and meta:<key>=)`);
  }
  if (lists.length === 0) return deadLetter('the line has no values (<time>:<value>[:<value>…])');
  if (lists.length > 1) return deadLetter(`the line holds ${lists.length} value lists; one record is one value list: send one PUTVAL per value list, as write_http does`);

  const parts = lists[0]!.split(':', MAX_VALUES + 2);
  if (parts.length > MAX_VALUES + 1) return deadLetter(`the value list holds more than ${MAX_VALUES} values (collectd's types have at most a few)`);
  if (parts.length < 2) return deadLetter(`${JSON.stringify(lists[0]!.slice(0, 80))} is not <time>:<value>[:<value>…]`);
  let timestamp: string | undefined;
  if (parts[0] !== 'N') {
    const ns = decimalToNs(parts[0]!, NS_PER_SECOND);
    if (ns === undefined) return deadLetter(`the time ${JSON.stringify(parts[0]!.slice(0, 40))} is neither N nor epoch seconds`);
    const ts = timestampOfNs(ns, `the time ${parts[0]}`);
    if (!ts.ok) return ts;
    timestamp = ts.value;
  }
  const values: Array<number | null> = [];
  for (let i = 1; i < parts.length; i++) {
    const v = floatOf(parts[i]!);
    if (v === undefined) return deadLetter(`value ${i} (${JSON.stringify(parts[i]!.slice(0, 40))}) is not a number or U`);
    values.push(v);
  }
  const ds = dataSources(id.type, values.length);
  return ok(
    valueRecord(
      timestamp,
      id,
      interval,
      values,
      ds.names,
      ds.kinds?.map((k) => k.kind),
      meta,
    ),
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isStringArray = (v: unknown, length: number): v is string[] => Array.isArray(v) && v.length === length && v.every((x) => typeof x === 'string');

/** One value list of `Format "JSON"` as a record, or why it is not one. */
export function collectdValueList(list: unknown): Outcome<Fields> {
  if (Array.isArray(list)) return deadLetter('a JSON array is one record under the framing "body": leave framing unset (or "elements") to take each value list');
  if (!isObject(list)) return deadLetter('not a collectd value list (a JSON object with values, host, plugin, type)');
  const values = list['values'];
  if (!Array.isArray(values) || values.length === 0 || !values.every((v) => v === null || typeof v === 'number')) {
    return deadLetter('not a collectd value list: values is not a non-empty array of numbers');
  }
  if (values.length > MAX_VALUES) return deadLetter(`the value list holds more than ${MAX_VALUES} values (collectd's types have at most a few)`);
  for (const key of ['host', 'plugin', 'type'] as const) {
    if (typeof list[key] !== 'string' || (key !== 'host' && list[key] === '')) return deadLetter(`not a collectd value list: ${key} is not a string`);
  }
  for (const key of ['plugin_instance', 'type_instance'] as const) {
    if (list[key] !== undefined && typeof list[key] !== 'string') return deadLetter(`not a collectd value list: ${key} is not a string`);
  }
  if (list['interval'] !== undefined && typeof list['interval'] !== 'number') return deadLetter('not a collectd value list: interval is not a number');
  if (list['dsnames'] !== undefined && !isStringArray(list['dsnames'], values.length)) return deadLetter('dsnames does not name each value');
  if (list['dstypes'] !== undefined && !isStringArray(list['dstypes'], values.length)) return deadLetter('dstypes does not give each value its kind');

  let timestamp: string | undefined;
  const time = list['time'];
  if (time !== undefined) {
    const ns = typeof time === 'number' ? secondsToNs(time) : undefined;
    if (ns === undefined) return deadLetter(`the time ${String(JSON.stringify(time)).slice(0, 40)} is not a number of epoch seconds`);
    const ts = timestampOfNs(ns, `the time ${time as number}`);
    if (!ts.ok) return ts;
    timestamp = ts.value;
  }
  const id: Identifier = {
    host: list['host'] as string,
    plugin: list['plugin'] as string,
    plugin_instance: (list['plugin_instance'] as string | undefined) ?? '',
    type: list['type'] as string,
    type_instance: (list['type_instance'] as string | undefined) ?? '',
  };
  const ds = dataSources(id.type, values.length);
  const names = (list['dsnames'] as string[] | undefined) ?? ds.names;
  const kinds = (list['dstypes'] as string[] | undefined) ?? ds.kinds?.map((k) => k.kind);
  return ok(valueRecord(timestamp, id, list['interval'] as number | undefined, values as Array<number | null>, names, kinds, list['meta']));
}
