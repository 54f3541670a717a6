/**
 * Where a (trigger, CI) key lives in the keyed problem stage (DESIGN §7a): partition
 * `hash(triggerId, ciId) mod P`. FNV-1a over the key text: stable across processes, versions
 * and platforms, and spread evenly enough for P in the tens to thousands.
 */
export const problemKeyOf = (triggerId: number, ciId: number): string => `${triggerId}:${ciId}`;

export function partitionOf(triggerId: number, ciId: number, partitions: number): number {
  const text = problemKeyOf(triggerId, ciId);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % partitions;
}
