/**
 * The shared wording of the human-readable formats: cleaning and clipping user text, times,
 * durations, console links, a group's counts.
 */
import t from 'tap';
import { cleanText, clip, consoleLink, duration, groupSummary, utc, viewOf } from '../../../../../pipelines/notifications/formats/event-text.js';
import { CONSOLE, allKinds, opened, resolved } from './format-fixture.js';

t.test('clip: at most max UTF-16 units with the ellipsis, never half a surrogate pair', async (t) => {
  t.equal(clip('abcdef', 6), 'abcdef');
  t.equal(clip('abcdef', 4), 'abc…');
  t.equal(clip('ab😀cd', 4), 'ab…', 'the emoji would be cut in half: left out');
  t.equal(clip('ab😀cd', 5), 'ab😀…');
});

t.test('cleanText: controls and line separators to a space, bidi controls dropped, lone surrogates replaced, trimmed', async (t) => {
  t.equal(cleanText(' web-01\r\nBcc: x\u2028y\u0000z ', 100), 'web-01 Bcc: x y z');
  t.equal(cleanText('\u202egnp.exe\u2066', 100), 'gnp.exe');
  t.equal(cleanText('a\ud800b\udc00c😀', 100), 'a\ufffdb\ufffdc😀');
  t.equal(cleanText('x'.repeat(300), 200).length, 200);
});

t.test('utc and duration', async (t) => {
  t.equal(utc('2025-03-01T12:00:59.999Z'), '2025-03-01 12:00 UTC');
  t.equal(utc('2025-03-01T13:00:00+01:00'), '2025-03-01 12:00 UTC');
  t.equal(utc('not a time\n'), 'not a time');
  t.strictSame([0, 45_000, 12 * 60_000, 3_600_000, 3_900_000, 86_400_000, 97_200_000, -5].map(duration), ['0 s', '45 s', '12 min', '1 h', '1 h 5 min', '1 d', '1 d 3 h', '0 s']);
});

t.test('consoleLink keeps the base path and drops its query', async (t) => {
  t.equal(consoleLink('https://ops.example.com', '/problems/x'), 'https://ops.example.com/problems/x');
  t.equal(consoleLink('https://example.com/ops/?a=1#h', '/cmdb/ci/3'), 'https://example.com/ops/cmdb/ci/3');
});

t.test('groupSummary counts by kind in catalogue order', async (t) => {
  t.equal(groupSummary([resolved(), opened(), opened()]), '3 notifications: 2 opened, 1 resolved');
  t.equal(groupSummary(allKinds()), '6 notifications: 1 opened, 1 acknowledged, 1 resolved, 1 flapping, 1 maintenance started, 1 SLA budget burning');
});

t.test('views: a CI without a name and a hand resolve with its author', async (t) => {
  const e = resolved();
  if (e.kind !== 'problem.resolved') throw new Error('fixture');
  const view = viewOf({ ...e, resolvedBy: 'hand', by: { id: 2, name: 'alice' }, problem: { ...e.problem, configItem: { id: 9, name: ' \n ' } } }, CONSOLE);
  t.strictSame(view.headline[2], { text: 'CI 9', url: 'https://ops.example.com/cmdb/ci/9', title: 'CI 9' });
  t.strictSame(
    view.facts.find((f) => f.label === 'Resolved by'),
    { label: 'Resolved by', value: 'hand (alice)' },
  );
});
