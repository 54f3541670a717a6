/**
 * Issue #37: the syslog preset on lines syslog-ng's loggen wrote (test/fixtures/presets/README.md
 * says how they were captured), on the examples of RFC 5424 §6.5 and RFC 3164 §5.4, and on the
 * dates RFC 3164 leaves open: the year, and the zone.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { parseSyslogLine } from '../../../../../pipelines/records/presets/syslog.js';

const fixtureLines = (name: string): string[] =>
  readFileSync(new URL(`../../../../fixtures/presets/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l !== '');
const RECEIVED = Date.parse('2026-11-25T20:58:50Z');

t.test('loggen (default, RFC 3164 style with an ISO date and no offset): PRI, date in UTC, host, app[procid]:, message', async (t) => {
  const lines = fixtureLines('loggen-rfc3164.txt');
  t.equal(lines.length, 3);
  lines.forEach((line, i) => {
    const out = parseSyslogLine(line, RECEIVED);
    t.equal(out.ok, true);
    const { message, ...rest } = out.ok ? out.value : {};
    t.strictSame(rest, {
      '@timestamp': '2026-11-25T20:58:45.000Z',
      facility: 'auth',
      facility_code: 4,
      severity: 'info',
      severity_code: 6,
      host: 'localhost',
      app: 'prg00000',
      procid: '1234',
    });
    t.match(message, new RegExp(`^seq: 000000000${i}, thread: 0000, runid: 1795640325, stamp: 2026-11-25T20:58:45 PADD`));
  });
  const berlin = parseSyslogLine(lines[0]!, RECEIVED, 'Europe/Berlin');
  t.equal(berlin.ok && berlin.value['@timestamp'], '2026-11-25T19:58:45.000Z', "with the stream's timeZone, the wall time is Berlin's (CET)");
});

t.test('loggen --syslog-proto (RFC 5424): version, the offset date as sent, nil fields left out, the BOM dropped', async (t) => {
  const lines = fixtureLines('loggen-rfc5424.txt');
  t.equal(lines.length, 3);
  const out = parseSyslogLine(lines[1]!, RECEIVED);
  t.equal(out.ok, true);
  const { message, ...rest } = out.ok ? out.value : {};
  t.strictSame(rest, {
    '@timestamp': '2026-11-25T20:58:45+00:00',
    facility: 'auth',
    facility_code: 4,
    severity: 'info',
    severity_code: 6,
    version: 1,
    host: 'localhost',
    app: 'prg00000',
    procid: '1234',
  });
  t.match(message, /^seq: 0000000001, thread: 0000/, 'the message without its UTF-8 BOM');
});

t.test('loggen --syslog-proto --sdata: structured data by SD-ID, a repeated name as an array, escapes undone', async (t) => {
  const [line] = fixtureLines('loggen-rfc5424-sdata.txt');
  const out = parseSyslogLine(line!, RECEIVED);
  t.strictSame(out.ok && out.value['structured_data'], {
    'exampleSDID@32473': { iut: '3', eventSource: 'Application', eventID: '1011' },
    origin: { ip: ['192.0.2.1', '192.0.2.129'], x: 'a"b]c\\d' },
  });
  t.match(out.ok && out.value['message'], /^seq: 0000000000/);
});

t.test('RFC 5424 §6.5 examples', async (t) => {
  t.strictSame(parseSyslogLine("<34>1 2003-10-11T22:14:15.003Z mymachine.example.com su - ID47 - \uFEFF'su root' failed for lonvick on /dev/pts/8", 0), {
    ok: true,
    value: {
      '@timestamp': '2003-10-11T22:14:15.003Z',
      facility: 'auth',
      facility_code: 4,
      severity: 'crit',
      severity_code: 2,
      version: 1,
      host: 'mymachine.example.com',
      app: 'su',
      msgid: 'ID47',
      message: "'su root' failed for lonvick on /dev/pts/8",
    },
  });
  t.strictSame(parseSyslogLine("<165>1 2003-08-24T05:14:15.000003-07:00 192.0.2.1 myproc 8710 - - %% It's time to make the do-nuts.", 0), {
    ok: true,
    value: {
      '@timestamp': '2003-08-24T05:14:15.000003-07:00',
      facility: 'local4',
      facility_code: 20,
      severity: 'notice',
      severity_code: 5,
      version: 1,
      host: '192.0.2.1',
      app: 'myproc',
      procid: '8710',
      message: "%% It's time to make the do-nuts.",
    },
  });
  const noMessage = parseSyslogLine(
    '<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 [exampleSDID@32473 iut="3" eventSource="Application" eventID="1011"][examplePriority@32473 class="high"]',
    0,
  );
  t.strictSame(noMessage.ok && noMessage.value['structured_data'], {
    'exampleSDID@32473': { iut: '3', eventSource: 'Application', eventID: '1011' },
    'examplePriority@32473': { class: 'high' },
  });
  t.equal(noMessage.ok && 'message' in noMessage.value, false, 'no MSG: no message field');
});

t.test('RFC 3164 §5.4 example: Mmm dd hh:mm:ss in the year of its receipt', async (t) => {
  t.strictSame(parseSyslogLine("<34>Oct 11 22:14:15 mymachine su: 'su root' failed for lonvick on /dev/pts/8", Date.parse('2003-10-11T22:14:16Z')), {
    ok: true,
    value: {
      '@timestamp': '2003-10-11T22:14:15.000Z',
      facility: 'auth',
      facility_code: 4,
      severity: 'crit',
      severity_code: 2,
      host: 'mymachine',
      app: 'su',
      message: "'su root' failed for lonvick on /dev/pts/8",
    },
  });
});

t.test('RFC 3164 dates: the year nearest the receipt, across New Year both ways; the zone from the stream', async (t) => {
  const at = (line: string, received: string, zone?: string) => {
    const out = parseSyslogLine(line, Date.parse(received), zone);
    return out.ok ? out.value['@timestamp'] : out.reason;
  };
  t.equal(at('<13>Dec 31 23:59:59 h a: x', '2027-01-01T00:00:05Z'), '2026-12-31T23:59:59.000Z', 'sent in December, received in January');
  t.equal(at('<13>Jan  1 00:00:01 h a: x', '2026-12-31T23:59:58Z'), '2027-01-01T00:00:01.000Z', "a sender's clock a little ahead");
  t.equal(at('<13>Jul  4 12:00:00 h a: x', '2026-07-04T10:00:01Z', 'Europe/Berlin'), '2026-07-04T10:00:00.000Z', 'CEST');
  t.equal(at('<13>Jan  4 12:00:00 h a: x', '2026-01-04T11:00:01Z', 'Europe/Berlin'), '2026-01-04T11:00:00.000Z', 'CET');
  t.equal(at('<13>Feb 29 12:00:00 h a: x', '2028-03-01T00:00:00Z'), '2028-02-29T12:00:00.000Z', 'a leap day in the one year of the three that has it');
  t.equal(at('<13>2026-11-25T20:58:45.123+01:00 h a: x', '2026-11-25T20:00:00Z', 'America/New_York'), '2026-11-25T20:58:45.123+01:00', 'an ISO date with its offset: as sent');
});

t.test('RFC 3164 variants: no PRI (a file), a tag and no host, no date (all message), no tag', async (t) => {
  t.strictSame(parseSyslogLine('Mar  1 01:00:00 billing-db postgres[812]: FATAL: the database system is shutting down', Date.parse('2026-03-01T01:00:02Z')), {
    ok: true,
    value: { '@timestamp': '2026-03-01T01:00:00.000Z', host: 'billing-db', app: 'postgres', procid: '812', message: 'FATAL: the database system is shutting down' },
  });
  const kernel = parseSyslogLine('<6>Nov 25 20:55:58 kernel: [12.5] eth0: link up', RECEIVED);
  t.strictSame(kernel.ok && [kernel.value['host'], kernel.value['app'], kernel.value['message']], [undefined, 'kernel', '[12.5] eth0: link up']);
  t.strictSame(parseSyslogLine('<13>hello world', RECEIVED), {
    ok: true,
    value: { facility: 'user', facility_code: 1, severity: 'notice', severity_code: 5, message: 'hello world' },
  });
  const noTag = parseSyslogLine('<13>Nov 25 20:55:58 router1 link down on ge-0/0/1', RECEIVED);
  t.strictSame(noTag.ok && [noTag.value['host'], noTag.value['app'], noTag.value['message']], ['router1', undefined, 'link down on ge-0/0/1']);
});

t.test('lines that cannot be syslog, or dates that cannot be, are refused with the reason', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['<192>1 - - - - - -', /the PRI "<192>1" is not <0> to <191>/],
    ['<x>hello', /the PRI "<x>hel" is not <0> to <191>/],
    ['<13>1 2026-02-30T10:00:00Z h a - - - x', /the timestamp "2026-02-30T10:00:00Z": @timestamp names a day that does not exist/],
    ['<13>1 2026-11-25T10:00:00 h a - - - x', /@timestamp is not an ISO 8601 date-time with a time zone/],
    ['<13>1 - h a', /an RFC 5424 header has a timestamp, host, app, procid and msgid/],
    ['<13>1 - h  a - - -', /header field is empty/],
    ['<13>1 - h a - - [id x=1] msg', /structured data of id: a parameter is not name="value"/],
    ['<13>1 - h a - - [id x="1] msg', /the value of x is not closed/],
    ['<13>1 - h a - - [id x="1"', /\] expected/],
    ['<13>1 - h a - - oops msg', /structured data is - or \[SD-ID/],
    ['<13>Feb 30 12:00:00 h a: x', /the date "Feb 30 12:00:00": @timestamp names a day that does not exist/],
    ['<13>2026-11-25T25:00:00 h a: x', /has an hour, minute, second or zone offset out of range/],
  ];
  for (const [line, reason] of cases) {
    const out = parseSyslogLine(line, RECEIVED);
    t.equal(out.ok, false, line);
    t.match(!out.ok && out.reason, reason, line);
  }
});
