/**
 * Gives the process an empty standard input. The embedded ClickHouse engine (chDB) runs
 * ClickHouse's client code, which treats whatever waits on the process's stdin as data for the
 * next INSERT (chdb-io/chdb-core#239): with data piped in, every insert fails, or with
 * async_insert off, stores the piped bytes as rows. The platform reads nothing from stdin, so its
 * entry points point descriptor 0 at /dev/null before anything else runs. A terminal is left as
 * it is: the engine ignores a TTY.
 */
import { closeSync, fstatSync, openSync } from 'node:fs';
import { isatty } from 'node:tty';

export function detachStdin(): void {
  if (isatty(0)) return;
  try {
    fstatSync(0);
  } catch {
    // No descriptor 0 at all: the next file opened would become the engine's stdin.
    claimDescriptorZero();
    return;
  }
  closeSync(0);
  claimDescriptorZero();
}

function claimDescriptorZero(): void {
  // POSIX hands out the lowest free descriptor: 0, just closed. At start-up nothing else is
  // opening files; should something have raced us to 0, say so rather than run with a stranger.
  const fd = openSync('/dev/null', 'r');
  if (fd !== 0) {
    closeSync(fd);
    throw new Error('could not point standard input at /dev/null');
  }
}
