/**
 * Where outbound requests may go (issue #31, Security): the rule that refuses an IP address, by
 * name, or the verdict that it may be reached. Pure: no DNS, no socket; outbound-client.ts resolves
 * names and asks this of every address, on every hop.
 *
 * The rules, first match wins (IANA's special-purpose registries):
 *
 * | rule             | IPv4                                                                    | IPv6                                              |
 * | ---------------- | ----------------------------------------------------------------------- | ------------------------------------------------- |
 * | `cloud-metadata` | 169.254.169.254, 169.254.170.2, 100.100.100.200, 192.0.0.192            | fd00:ec2::254                                     |
 * | `loopback`       | 127.0.0.0/8                                                             | ::1                                               |
 * | `unspecified`    | 0.0.0.0/8                                                               | ::                                                |
 * | `private`        | 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16                               | fc00::/7, fec0::/10 (site-local), 64:ff9b:1::/48  |
 * | `link-local`     | 169.254.0.0/16                                                          | fe80::/10                                         |
 * | `cgnat`          | 100.64.0.0/10                                                           |                                                   |
 * | `broadcast`      | 255.255.255.255                                                         |                                                   |
 * | `multicast`      | 224.0.0.0/4                                                             | ff00::/8                                          |
 * | `reserved`       | 192.0.0.0/24, the documentation nets, 192.88.99.0/24, 198.18.0.0/15, 240.0.0.0/4 | 100::/64, 2001::/23, 2001:db8::/32, 3fff::/20, 5f00::/16, and all outside 2000::/3 |
 *
 * An IPv6 address that carries an IPv4 one is judged by the IPv4 one: IPv4-mapped
 * (`::ffff:127.0.0.1`, `::ffff:7f00:1`), IPv4-compatible (`::127.0.0.1`; `reserved` when the IPv4
 * one is public), NAT64 (64:ff9b::/96) and 6to4 (2002::/16). IPv4 in the forms `inet_aton` and
 * URLs accept (`0x7f.1`, `0177.0.0.1`, `2130706433`, `127.1`) is read as the address it names.
 *
 * `OPS_NOTIFY_ALLOW_NETWORKS` lists the networks the rules do not apply to (an internal webhook
 * receiver, a test server on 127.0.0.1). A cloud-metadata address is opened only by naming it
 * exactly (169.254.169.254/32): a wide network such as 169.254.0.0/16 or 0.0.0.0/0 never opens it.
 */
import { BlockList, isIP, isIPv4 } from 'node:net';

export type AddressRule = 'cloud-metadata' | 'loopback' | 'unspecified' | 'private' | 'link-local' | 'cgnat' | 'broadcast' | 'multicast' | 'reserved' | 'not-an-address';

export type AddressVerdict =
  /** `listed`: the address is refused by a rule, but OPS_NOTIFY_ALLOW_NETWORKS opens it. */
  | { readonly allowed: true; readonly address: string; readonly listed: boolean }
  | { readonly allowed: false; readonly address: string; readonly rule: AddressRule; readonly network: string };

/** One network of OPS_NOTIFY_ALLOW_NETWORKS, as parsed. */
export interface AllowedNetwork {
  readonly address: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

/** What the rules do not apply to; build it once with createAddressPolicy. */
export interface AddressPolicy {
  readonly networks: readonly AllowedNetwork[];
  /** Every listed network. */
  readonly allow: BlockList;
  /** Only the listed single addresses (/32, /128): what may open a cloud-metadata address. */
  readonly allowExactly: BlockList;
}

type Family = 'ipv4' | 'ipv6';
interface Rule {
  readonly rule: Exclude<AddressRule, 'not-an-address'>;
  readonly network: string;
  readonly list: BlockList;
}

const rule = (name: Rule['rule'], network: string): Rule => {
  const [address = '', prefix = ''] = network.split('/');
  const family: Family = isIPv4(address) ? 'ipv4' : 'ipv6';
  const list = new BlockList();
  list.addSubnet(address, Number(prefix), family);
  return { rule: name, network, list };
};

const IPV4_RULES: readonly Rule[] = [
  rule('cloud-metadata', '169.254.169.254/32'), // AWS, GCP, Azure, OpenStack, Oracle, DigitalOcean
  rule('cloud-metadata', '169.254.170.2/32'), // AWS ECS task credentials
  rule('cloud-metadata', '100.100.100.200/32'), // Alibaba Cloud
  rule('cloud-metadata', '192.0.0.192/32'), // Oracle Cloud Classic
  rule('loopback', '127.0.0.0/8'),
  rule('unspecified', '0.0.0.0/8'),
  rule('private', '10.0.0.0/8'),
  rule('private', '172.16.0.0/12'),
  rule('private', '192.168.0.0/16'),
  rule('link-local', '169.254.0.0/16'),
  rule('cgnat', '100.64.0.0/10'),
  rule('broadcast', '255.255.255.255/32'),
  rule('multicast', '224.0.0.0/4'),
  rule('reserved', '192.0.0.0/24'),
  rule('reserved', '192.0.2.0/24'),
  rule('reserved', '192.88.99.0/24'),
  rule('reserved', '198.18.0.0/15'),
  rule('reserved', '198.51.100.0/24'),
  rule('reserved', '203.0.113.0/24'),
  rule('reserved', '240.0.0.0/4'),
];

const IPV6_RULES: readonly Rule[] = [
  rule('cloud-metadata', 'fd00:ec2::254/128'), // AWS over IPv6
  rule('loopback', '::1/128'),
  rule('unspecified', '::/128'),
  rule('private', 'fc00::/7'),
  rule('private', 'fec0::/10'),
  rule('private', '64:ff9b:1::/48'),
  rule('link-local', 'fe80::/10'),
  rule('multicast', 'ff00::/8'),
  rule('reserved', '100::/64'),
  rule('reserved', '2001::/23'),
  rule('reserved', '2001:db8::/32'),
  rule('reserved', '3fff::/20'),
  rule('reserved', '5f00::/16'),
];
const GLOBAL_UNICAST = rule('reserved', '2000::/3');
const NOT_GLOBAL_UNICAST = 'outside 2000::/3';

/** The policy that opens the networks listed (none: every rule applies). */
export function createAddressPolicy(networks: readonly AllowedNetwork[] = []): AddressPolicy {
  const allow = new BlockList();
  const allowExactly = new BlockList();
  for (const n of networks) {
    allow.addSubnet(n.address, n.prefix, n.family);
    if (n.prefix === (n.family === 'ipv4' ? 32 : 128)) allowExactly.addAddress(n.address, n.family);
  }
  return { networks, allow, allowExactly };
}

/** Verdicts a policy remembers, at most: a dispatcher sends to few addresses, many times each. */
const VERDICTS_KEPT = 1024;
/**
 * The verdicts given, by policy and address. Each BlockList check builds a SocketAddress: with
 * the rules walked for every request, that was 4 % of a send thread's time in the notifications
 * bench.
 */
const verdicts = new WeakMap<AddressPolicy, Map<string, AddressVerdict>>();

/** Whether a request may go to `address` (an IPv4 or IPv6 address, brackets and zone allowed). */
export function checkAddress(address: string, policy: AddressPolicy): AddressVerdict {
  let known = verdicts.get(policy);
  if (!known) verdicts.set(policy, (known = new Map()));
  let verdict = known.get(address);
  if (verdict === undefined) {
    if (known.size >= VERDICTS_KEPT) known.clear();
    verdict = judgeAddress(address, policy);
    known.set(address, verdict);
  }
  return verdict;
}

function judgeAddress(address: string, policy: AddressPolicy): AddressVerdict {
  const read = readAddress(address);
  if (!read) return { allowed: false, address, rule: 'not-an-address', network: '-' };
  const refused = ruleOf(read);
  if (!refused) return { allowed: true, address: read.text, listed: false };
  const list = refused.rule === 'cloud-metadata' ? policy.allowExactly : policy.allow;
  const forms: Array<[string, Family]> = [[read.text, read.family]];
  if (read.ipv4 !== undefined && read.ipv4 !== read.text) forms.push([read.ipv4, 'ipv4']);
  if (forms.some(([a, f]) => list.check(a, f))) return { allowed: true, address: read.text, listed: true };
  return { allowed: false, address: read.text, rule: refused.rule, network: refused.network };
}

interface ReadAddress {
  /** The address as written canonically (IPv6 compressed, lower case, no zone). */
  text: string;
  family: Family;
  /** IPv6 only: the 8 groups. */
  groups?: number[];
  /** The IPv4 address it is, or that it carries (mapped, compatible, NAT64, 6to4). */
  ipv4?: string;
}

function ruleOf(read: ReadAddress): { rule: Rule['rule']; network: string } | undefined {
  if (read.family === 'ipv4') return IPV4_RULES.find((r) => r.list.check(read.text, 'ipv4'));
  const g = read.groups ?? [];
  const carried = carriedIpv4(g);
  if (carried) {
    const inner = IPV4_RULES.find((r) => r.list.check(carried.ipv4, 'ipv4'));
    if (inner) return { rule: inner.rule, network: `${inner.network} (${carried.how})` };
    if (carried.how === 'IPv4-mapped') return undefined;
    if (carried.how === 'IPv4-compatible') return { rule: 'reserved', network: '::/96 (IPv4-compatible, deprecated)' };
    return undefined; // NAT64 and 6to4 of a public IPv4 address: the public address is reached
  }
  const matched = IPV6_RULES.find((r) => r.list.check(read.text, 'ipv6'));
  if (matched) return matched;
  if (!GLOBAL_UNICAST.list.check(read.text, 'ipv6')) return { rule: 'reserved', network: NOT_GLOBAL_UNICAST };
  return undefined;
}

/** The IPv4 address an IPv6 one carries, and how. */
function carriedIpv4(g: number[]): { ipv4: string; how: string } | undefined {
  const low = (hi: number, lo: number): string => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return { ipv4: low(g6, g7), how: 'IPv4-mapped' };
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return { ipv4: low(g6, g7), how: 'IPv4-translated' };
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 && (g6 !== 0 || g7 > 1)) return { ipv4: low(g6, g7), how: 'IPv4-compatible' };
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return { ipv4: low(g6, g7), how: 'NAT64' };
  if (g0 === 0x2002) return { ipv4: low(g1, g2), how: '6to4' };
  return undefined;
}

/** Reads an address in any form a URL or getaddrinfo would take, or undefined. */
function readAddress(input: string): ReadAddress | undefined {
  let text = input.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0 && text.includes(':')) text = text.slice(0, zone);
  if (text.includes(':')) {
    const groups = ipv6Groups(text);
    if (!groups) return undefined;
    const canonical = canonicalIpv6(text);
    const carried = carriedIpv4(groups);
    return { text: canonical, family: 'ipv6', groups, ...(carried ? { ipv4: carried.ipv4 } : {}) };
  }
  if (isIPv4(text)) return { text, family: 'ipv4', ipv4: text };
  // inet_aton's forms (hex, octal, fewer parts, one number), as the URL standard reads them.
  if (!/^[0-9a-fA-FxX.]+$/.test(text)) return undefined;
  try {
    const host = new URL(`http://${text}/`).hostname;
    return isIPv4(host) ? { text: host, family: 'ipv4', ipv4: host } : undefined;
  } catch {
    return undefined;
  }
}

/** The compressed lower-case form, as URLs write it (throws on a bad address). */
function canonicalIpv6(text: string): string {
  return new URL(`http://[${text}]/`).hostname.slice(1, -1);
}

/** The 8 groups of an IPv6 address (a dotted IPv4 tail allowed), or undefined. */
function ipv6Groups(text: string): number[] | undefined {
  if (isIP(text) !== 6) return undefined;
  const canonical = canonicalIpv6(text); // no dotted tail, at most one `::`
  const [head = '', tail] = canonical.split('::');
  const part = (s: string): number[] => (s === '' ? [] : s.split(':').map((h) => parseInt(h, 16)));
  const before = part(head);
  const after = tail === undefined ? [] : part(tail);
  const fill = tail === undefined ? [] : new Array<number>(8 - before.length - after.length).fill(0);
  const groups = [...before, ...fill, ...after];
  return groups.length === 8 ? groups : undefined;
}

/**
 * OPS_NOTIFY_ALLOW_NETWORKS: networks in CIDR notation (`10.20.0.0/16`, `fd00:1::/64`) or single
 * addresses (`192.168.1.5`), separated by commas. Throws an Error saying what is wrong with the
 * first bad one; a network with bits set past its prefix (`10.0.0.1/8`) is refused as ambiguous.
 */
export function parseAllowNetworks(text: string): AllowedNetwork[] {
  const networks: AllowedNetwork[] = [];
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const match = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(item);
    const address = match?.[1] ?? '';
    const version = isIP(address);
    if (!match || version === 0) throw new Error(`${item} is not an IP address or a network in CIDR notation`);
    const family: Family = version === 4 ? 'ipv4' : 'ipv6';
    const bits = version === 4 ? 32 : 128;
    const prefix = match[2] === undefined ? bits : Number(match[2]);
    if (prefix > bits) throw new Error(`${item}: the prefix of an ${family === 'ipv4' ? 'IPv4' : 'IPv6'} network is at most /${bits}`);
    const base = networkAddress(address, family, prefix);
    if (base !== (family === 'ipv4' ? address : canonicalIpv6(address))) throw new Error(`${item} has bits set past its /${prefix} prefix: write ${base}/${prefix}`);
    networks.push({ address: base, prefix, family });
  }
  return networks;
}

/** The first address of the /prefix network holding `address`, written canonically. */
function networkAddress(address: string, family: Family, prefix: number): string {
  const bytes = family === 'ipv4' ? address.split('.').map(Number) : (ipv6Groups(address) ?? []).flatMap((g) => [g >> 8, g & 255]);
  const masked = bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
  if (family === 'ipv4') return masked.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((masked[i] ?? 0) << 8) | (masked[i + 1] ?? 0)).toString(16));
  return canonicalIpv6(groups.join(':'));
}
