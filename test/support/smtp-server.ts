/**
 * A real SMTP server for the email receiver's tests (issue #31): Debian's `python3-aiosmtpd`
 * (its `aiosmtpd` command, which runs on the system Python that has the module) on a free port
 * of 127.0.0.1. Without it a test is skipped with the reason; REQUIRE_SERVICES=1 (CI) turns that
 * into a failure, as services.ts does for the other servers.
 *
 * Its handler (HANDLER below, a module in the server's temporary directory) parses each message
 * with Python's `email` package and writes it as one JSON file, written aside and renamed into
 * place, so a reader never sees half a message: headers decoded (RFC 2047 subjects included),
 * the text and HTML parts as text. It answers recipients by their local part:
 *   refuse…@         550 5.1.1, a permanent refusal
 *   tempfail-once…@  451 4.3.0 the first time that address is given, then accepted
 *   anything else    accepted
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { binaryPath } from './services.js';

export const AIOSMTPD_BINARY = 'aiosmtpd';

/** One message as the server received it. */
export interface ReceivedMail {
  /** The SMTP envelope. */
  mailFrom: string;
  rcptTos: string[];
  /** Headers, decoded. */
  from: string;
  to: string;
  subject: string;
  messageId: string;
  references: string | null;
  /** The text/plain and text/html parts; null when the message has none. */
  text: string | null;
  html: string | null;
}

export interface RunningSmtpServer {
  host: string;
  port: number;
  /** Every message accepted so far, in the order they came. */
  messages(): ReceivedMail[];
  /** Every RCPT it refused so far, as `<code> <address>`. */
  refusals(): string[];
  output(): string;
  /** Stops it and removes its directory. */
  stop(): Promise<void>;
}

/**
 * Why a test needing the SMTP server cannot run here, or false when it can. Throws under
 * REQUIRE_SERVICES=1, so CI never silently skips. (Not services.ts' missingServices: the
 * package is named python3-aiosmtpd, not after its command.)
 */
export function missingSmtpServer(): string | false {
  if (binaryPath(AIOSMTPD_BINARY)) return false;
  const reason = `${AIOSMTPD_BINARY} not installed (apt-get install -y python3-aiosmtpd)`;
  if (process.env['REQUIRE_SERVICES'] === '1') throw new Error(`REQUIRE_SERVICES=1 but ${reason}`);
  return reason;
}

const HANDLER = String.raw`
import email
import email.policy
import json
import os


class Spool:
    """Each message as a JSON file in the spool directory; recipients refused by local part."""

    def __init__(self, directory):
        self.directory = directory
        self.count = 0
        self.asked = {}

    @classmethod
    def from_cli(cls, parser, *args):
        if len(args) != 1:
            parser.error("Spool takes one argument: the spool directory")
        return cls(args[0])

    def _write(self, kind, record):
        self.count += 1
        path = os.path.join(self.directory, "%s-%06d.json" % (kind, self.count))
        with open(path + ".part", "w", encoding="utf-8") as f:
            json.dump(record, f)
        os.replace(path + ".part", path)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local = address.split("@", 1)[0].lower()
        times = self.asked.get(address.lower(), 0)
        self.asked[address.lower()] = times + 1
        if local.startswith("refuse"):
            self._write("refused", {"code": 550, "address": address})
            return "550 5.1.1 <%s>: mailbox unavailable" % address
        if local.startswith("tempfail-once") and times == 0:
            self._write("refused", {"code": 451, "address": address})
            return "451 4.3.0 <%s>: try again later" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        msg = email.message_from_bytes(raw, policy=email.policy.default)

        def part(kind):
            body = msg.get_body(preferencelist=(kind,))
            return None if body is None else body.get_content()

        def header(name):
            value = msg[name]
            return None if value is None else str(value)

        self._write("mail", {
            "mailFrom": envelope.mail_from,
            "rcptTos": list(envelope.rcpt_tos),
            "from": header("From") or "",
            "to": header("To") or "",
            "subject": header("Subject") or "",
            "messageId": header("Message-ID") or "",
            "references": header("References"),
            "text": part("plain"),
            "html": part("html"),
        })
        return "250 Message accepted for delivery"
`;

/** Resolves once the server greets a connection with 220; rejects after `timeoutMs`. */
function waitForGreeting(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = (): void => {
      const socket = connect(port, '127.0.0.1');
      socket.setEncoding('utf8');
      socket.once('data', (data: string) => {
        socket.end('QUIT\r\n');
        if (data.startsWith('220')) resolve();
        else reject(new Error(`the SMTP server greeted with ${JSON.stringify(data)}`));
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`no SMTP server on port ${port} after ${timeoutMs} ms`));
        else setTimeout(attempt, 25);
      });
    };
    attempt();
  });
}

export async function startSmtpServer(): Promise<RunningSmtpServer> {
  const bin = binaryPath(AIOSMTPD_BINARY);
  if (!bin) throw new Error(`${AIOSMTPD_BINARY} is not installed`);
  const dir = mkdtempSync(join(tmpdir(), 'ops-smtp-'));
  const spool = join(dir, 'spool');
  mkdirSync(spool);
  writeFileSync(join(dir, 'ops_smtp_spool.py'), HANDLER);
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(bin, ['-n', '-l', `127.0.0.1:${port}`, '-c', 'ops_smtp_spool.Spool', spool], {
    env: { PATH: process.env['PATH'] ?? '', PYTHONPATH: dir, PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (d: Buffer): void => {
    output = (output + d.toString()).slice(-8000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const ready = waitForGreeting(port, 15_000);
    const died = exited.then(() => {
      throw new Error(`${AIOSMTPD_BINARY} exited with ${child.exitCode ?? child.signalCode}: ${output}`);
    });
    // Whichever loses the race settles unheard: exiting at stop is no failure.
    ready.catch(() => undefined);
    died.catch(() => undefined);
    await Promise.race([ready, died]);
  } catch (error) {
    await stop();
    throw error;
  }

  const read = (kind: string): unknown[] =>
    readdirSync(spool)
      .filter((name) => name.startsWith(`${kind}-`) && name.endsWith('.json'))
      .sort()
      .map((name) => JSON.parse(readFileSync(join(spool, name), 'utf8')) as unknown);

  return {
    host: '127.0.0.1',
    port,
    messages: () => read('mail') as ReceivedMail[],
    refusals: () => (read('refused') as Array<{ code: number; address: string }>).map((r) => `${r.code} ${r.address}`),
    output: () => output,
    stop,
  };
}
