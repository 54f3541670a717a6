/**
 * docs/errors.md, rendered from the error catalogue and the HTTP edge's statuses:
 * `npm run docs:errors` writes it; a test checks that the page in the repository is current.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ERROR_CATALOGUE, type ErrorCode } from '../../../schemas/error-catalogue.js';
import { STATUS_OF_KIND } from './problem.js';

export function renderErrorCatalogue(): string {
  const lines = [
    '# Error codes',
    '',
    'Every error answer is `application/problem+json` (RFC 9457): `type` is `urn:ops:problem:<kind>`,',
    '`status` and `title` follow from the kind, `detail` is the message below with its `{values}`',
    'filled, and `code` is the stable machine code. Validation failures list the offending fields in',
    '`errors` (`path`, `message`); a value that must be one of a few lists them there. A 403 for a',
    'missing platform right also carries `right` and `roles`, the roles that grant it (narrowest first).',
    'Codes are part of the API; match on `code`, not on `detail`.',
    '',
    'Rendered from `schemas/error-catalogue.ts` by `npm run docs:errors`; do not edit by hand.',
    '',
    '| code | status | kind | message |',
    '|---|--:|---|---|',
  ];
  for (const [code, entry] of Object.entries(ERROR_CATALOGUE) as Array<[ErrorCode, (typeof ERROR_CATALOGUE)[ErrorCode]]>) {
    lines.push(`| \`${code}\` | ${STATUS_OF_KIND[entry.kind].status} | ${entry.kind} | ${entry.message.replaceAll('|', '\\|')} |`);
  }
  return `${lines.join('\n')}\n`;
}

export const ERROR_DOCS_PATH = new URL('../../../docs/errors.md', import.meta.url);

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) writeFileSync(ERROR_DOCS_PATH, renderErrorCatalogue());
