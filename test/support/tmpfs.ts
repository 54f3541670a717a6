/**
 * A size-limited filesystem of a test's own (issue #34): a tmpfs mounted on a fresh directory,
 * unmounted and removed when the test file ends. Mounting needs root, which CI has: where it is
 * refused, `refused` says why and the test is skipped with that reason, except under
 * REQUIRE_SERVICES=1, where the refusal fails the file instead.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';

export interface Tmpfs {
  dir: string;
  /** Why it could not be mounted (the test is skipped), or undefined when it is. */
  refused: string | undefined;
  /** Bytes free for an unprivileged writer. */
  free(): number;
  /** Writes the file `name` until `leave` bytes are free (0: until the disk takes no other byte). */
  fill(name: string, leave?: number): void;
  /** Removes the file `name`: its space is free again. */
  remove(name: string): void;
}

export function mountTmpfs(t: Test, sizeMiB: number): Tmpfs {
  const dir = mkdtempSync(join(tmpdir(), 'ops-tmpfs-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m`, 'tmpfs', dir], { encoding: 'utf8' });
  const refused =
    mounted.status === 0 ? undefined : `mounting a tmpfs was refused (${(mounted.stderr || mounted.error?.message || `exit ${mounted.status}`).trim()}); it needs root`;
  t.teardown(() => {
    if (!refused) spawnSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  if (refused && process.env['REQUIRE_SERVICES'] === '1') t.fail(`REQUIRE_SERVICES=1 but ${refused}`);
  const free = (): number => {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  };
  return {
    dir,
    refused,
    free,
    fill(name, leave = 0) {
      const fd = openSync(join(dir, name), 'a');
      const chunk = Buffer.alloc(1024 * 1024, 1);
      try {
        for (let left = free() - leave; left > 0; left = free() - leave) writeSync(fd, chunk, 0, Math.min(chunk.length, left));
        // The last page of a file may still take a few bytes: write until it takes none.
        if (leave === 0) for (;;) writeSync(fd, chunk, 0, 512);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
    },
    remove(name) {
      rmSync(join(dir, name), { force: true });
    },
  };
}
