/**
 * The access line quotes request ids and paths itself when nothing in them needs escaping
 * (services/runtime/logger.ts jsonString): whatever they hold, the text is the one JSON.stringify
 * writes, so the line stays one JSON object with the very values.
 */
import t from 'tap';
import { jsonString } from '../../../../services/runtime/logger.js';

t.test('a string is written as JSON.stringify writes it, whatever it holds', async (t) => {
  const samples = [
    '',
    '/api/public/cl/v1/stream-data',
    '4f2-1a',
    'a "quote"',
    'a \\ backslash',
    // One escape each: a string with several would be escaped for any one of them.
    'tab\there',
    'new\nline',
    'bell\u0007',
    'nul\u0000',
    'unit separator\u001f',
    'delete \u007f and latin é and line separator \u2028',
    'a pair 😀 stays, a lone high \ud800 and a lone low \udfff are escaped',
    '\ud83d',
  ];
  for (const [i, text] of samples.entries()) {
    // Named by index: a raw line separator (U+2028) in a test's name breaks tap's own output.
    t.equal(jsonString(text), JSON.stringify(text), `sample ${i}`);
    t.equal(JSON.parse(jsonString(text)), text);
  }
});
