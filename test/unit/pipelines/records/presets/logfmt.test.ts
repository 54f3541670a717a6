/**
 * Issue #37: the logfmt preset on lines as Go's log/slog text handler, logrus, go-kit and Heroku's
 * router write them; the date read from the usual keys by the rule every receiver uses.
 */
import t from 'tap';
import { parseLogfmtLine } from '../../../../../pipelines/records/presets/logfmt.js';

t.test('log/slog TextHandler: time with offset, quoted message with escapes, values as text', async (t) => {
  t.strictSame(parseLogfmtLine('time=2023-08-04T16:09:19.000-04:00 level=INFO msg="hello \\"world\\"\\n" count=3 path=/api/v1'), {
    ok: true,
    value: { '@timestamp': '2023-08-04T16:09:19.000-04:00', time: '2023-08-04T16:09:19.000-04:00', level: 'INFO', msg: 'hello "world"\n', count: '3', path: '/api/v1' },
  });
});

t.test('go-kit (ts=) and logrus (time="…"): the date from either key', async (t) => {
  const kit = parseLogfmtLine('ts=2019-06-12T09:10:11.123456Z caller=main.go:42 level=error err="connection refused"');
  t.equal(kit.ok && kit.value['@timestamp'], '2019-06-12T09:10:11.123456Z');
  const logrus = parseLogfmtLine('time="2015-03-26T01:27:38-04:00" level=warning msg="The group\'s number increased tremendously!" number=122 omg=true');
  t.equal(logrus.ok && logrus.value['@timestamp'], '2015-03-26T01:27:38-04:00');
  t.equal(logrus.ok && logrus.value['omg'], 'true', 'a value stays as written');
});

t.test("Heroku's router: no date key (dated by the receipt), = inside a bare value, a bare key is true", async (t) => {
  const out = parseLogfmtLine('at=info method=GET path="/" host=myapp.herokuapp.com fwd="204.204.204.204" dyno=web.1 connect=1ms service=18ms status=200 bytes=13 q=a=b debug');
  t.strictSame(out, {
    ok: true,
    value: {
      at: 'info',
      method: 'GET',
      path: '/',
      host: 'myapp.herokuapp.com',
      fwd: '204.204.204.204',
      dyno: 'web.1',
      connect: '1ms',
      service: '18ms',
      status: '200',
      bytes: '13',
      q: 'a=b',
      debug: true,
    },
  });
});

t.test('an epoch ts stays a field (preprocessor.timestampField reads it); key= is an empty text; __proto__ is a field', async (t) => {
  const out = parseLogfmtLine('ts=1700000000.5 empty= __proto__=x');
  t.strictSame(out.ok && Object.entries(out.value), [
    ['ts', '1700000000.5'],
    ['empty', ''],
    ['__proto__', 'x'],
  ]);
  t.equal(out.ok && Object.getPrototypeOf(out.value), Object.prototype);
});

t.test('lines that are not logfmt, or a date that cannot be, are refused with the reason', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['just a sentence without pairs', /no key=value pair/],
    ['msg="not closed', /column 5: the quoted value is not closed/],
    ['msg="a"b', /a space must follow the quoted value of "msg"/],
    ['msg="\\q"', /unknown escape "\\\\q"/],
    ['=value', /a value without a key/],
    ['"k"=v', /holds a quote/],
    ['time=2026-02-30T10:00:00Z msg=x', /time=2026-02-30T10:00:00Z: @timestamp names a day that does not exist/],
    ['ts=2026-11-21T10:00:00 msg=x', /ts=2026-11-21T10:00:00: @timestamp is not an ISO 8601 date-time with a time zone/],
  ];
  for (const [line, reason] of cases) {
    const out = parseLogfmtLine(line);
    t.equal(out.ok, false, line);
    t.match(!out.ok && out.reason, reason, line);
  }
});
