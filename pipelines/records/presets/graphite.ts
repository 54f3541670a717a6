/**
 * The `graphite` preset: Graphite's plaintext protocol, one record per line, as carbon reads it
 * (the line split at whitespace into exactly three parts):
 *
 *   `<metric path>[;<tag>=<value>…] <value> <timestamp>`
 *   → `{"@timestamp", metric, tags?: {…}, value}`
 *
 * The value is a float (`nan` and `inf` as null); the timestamp is epoch seconds, decimals
 * allowed, and `-1` means now (carbon's convention: the record is dated by its receipt). Tags
 * are Graphite 1.1's (`disk.used;host=db-1;mount=/`), each `name=value` with neither empty.
 */
import { deadLetter, type Outcome, ok } from '../outcome.js';
import { type Fields, floatOf, put } from './preset-fields.js';
import { decimalToNs, NS_PER_SECOND, timestampOfNs } from './preset-time.js';

/** One plaintext line as a record, or why it is not one. */
export function parseGraphiteLine(line: string): Outcome<Fields> {
  const parts = line.trim().split(/[ \t]+/, 4);
  if (parts.length !== 3) {
    const has = parts.length > 3 ? 'more than 3 parts' : `${parts.length} part${parts.length === 1 ? '' : 's'}`;
    return deadLetter(`a line is "<metric path> <value> <timestamp>": this one has ${has}`);
  }
  const [series, valueText, timeText] = parts as [string, string, string];

  const [metric, ...tagTexts] = series.split(';');
  if (!metric) return deadLetter('the metric path is empty');
  let tags: Fields | undefined;
  for (const tag of tagTexts) {
    const eq = tag.indexOf('=');
    if (eq <= 0 || eq === tag.length - 1) return deadLetter(`the tag ${JSON.stringify(tag.slice(0, 80))} is not <name>=<value>`);
    tags ??= {};
    put(tags, tag.slice(0, eq), tag.slice(eq + 1));
  }

  const value = floatOf(valueText);
  if (value === undefined || valueText === 'U') return deadLetter(`the value ${JSON.stringify(valueText.slice(0, 40))} is not a number`);

  const record: Fields = {};
  if (timeText !== '-1') {
    const ns = decimalToNs(timeText, NS_PER_SECOND);
    if (ns === undefined) return deadLetter(`the timestamp ${JSON.stringify(timeText.slice(0, 40))} is not epoch seconds (or -1 for now)`);
    const ts = timestampOfNs(ns, `the timestamp ${timeText}`);
    if (!ts.ok) return ts;
    record['@timestamp'] = ts.value;
  }
  record['metric'] = metric;
  if (tags) record['tags'] = tags;
  record['value'] = value;
  return ok(record);
}
