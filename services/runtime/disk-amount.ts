/**
 * Amounts of disk space as an operator writes them (OPS_MIN_FREE_DISK): a size (`2GiB`, `500MB`,
 * `1073741824`) or a share of the filesystem (`5%`); several, comma-separated, mean the largest
 * of them on the filesystem at hand (`5%,1GiB`, the default). KB/MB/GB/TB are powers of 1000,
 * KiB/MiB/GiB/TiB (and K/M/G/T) powers of 1024.
 */
export type DiskAmount = { readonly bytes: number } | { readonly percent: number };

const UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 1024,
  kib: 1024,
  kb: 1000,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  mb: 1000 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
  gb: 1000 ** 3,
  t: 1024 ** 4,
  tib: 1024 ** 4,
  tb: 1000 ** 4,
};

/** Parses one amount or several, comma-separated (the env schema's `DiskAmounts`); throws on anything else. */
export function parseDiskAmounts(text: string): DiskAmount[] {
  return text.split(',').map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(%|[a-z]*)\s*$/i.exec(part);
    const unit = match?.[2]?.toLowerCase();
    if (!match || unit === undefined) throw new Error(`not a disk amount: ${part}`);
    const value = Number(match[1]);
    if (unit === '%') {
      if (value > 100) throw new Error(`a share of the disk above 100%: ${part}`);
      return { percent: value };
    }
    const factor = UNITS[unit];
    if (factor === undefined) throw new Error(`unknown unit in ${part}`);
    return { bytes: Math.round(value * factor) };
  });
}

/** The amounts on a filesystem of `totalBytes`: the largest of them, in bytes. */
export function resolveDiskAmounts(amounts: readonly DiskAmount[], totalBytes: number): number {
  let largest = 0;
  for (const a of amounts) largest = Math.max(largest, 'bytes' in a ? a.bytes : Math.round((a.percent / 100) * totalBytes));
  return largest;
}

/** Bytes as people read them: `1.5 GiB`, `812 MiB`, `0 B`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}
