/**
 * The JSON object of a create or update command, from `--body` (inline) or `--file` (a path).
 * `--json` is taken: it is the global "print the answer as JSON" flag.
 */
import { type CommandInput, type PrepareDeps, str } from './spec.js';
import { isRecord } from './table.js';

type BodyResult = { ok: true; body: Record<string, unknown> } | { ok: false; usage: string };

/** The JSON object from --body or --file (args.ts makes them exclusive and requires one). */
export async function readBody(input: CommandInput, deps: PrepareDeps): Promise<BodyResult> {
  const inline = str(input, 'body');
  const path = str(input, 'file');
  let text: string;
  let source: string;
  if (inline !== undefined) {
    text = inline;
    source = '--body';
  } else {
    source = `--file ${path ?? ''}`;
    try {
      text = await deps.readFile(path ?? '');
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { ok: false, usage: `cannot read ${source}${code ? ` (${code})` : ''}` };
    }
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return { ok: false, usage: `${source} is not valid JSON: ${(error as Error).message}` };
  }
  if (!isRecord(body)) return { ok: false, usage: `${source} must be a JSON object` };
  return { ok: true, body };
}
