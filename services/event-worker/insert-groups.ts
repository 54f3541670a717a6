/**
 * The messages an event worker fetched together, cut into groups inserted one by one, in order,
 * each holding at most `maxBytes` of message data (a single larger message alone). An insert's
 * rows are one string: 64 messages of several megabytes each would pass V8's string limit, and
 * the same group, redelivered, would fail the same way forever.
 */
export function insertGroups<T extends { data: Uint8Array }>(messages: readonly T[], maxBytes: number): T[][] {
  const groups: T[][] = [];
  let group: T[] = [];
  let bytes = 0;
  for (const message of messages) {
    if (group.length > 0 && bytes + message.data.byteLength > maxBytes) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    group.push(message);
    bytes += message.data.byteLength;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}
