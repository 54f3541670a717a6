/**
 * Issue #31, Security: which addresses outbound notification requests may reach, by rule
 * (services/runtime/outbound/address-policy.ts), and OPS_NOTIFY_ALLOW_NETWORKS's parsing.
 */
import t from 'tap';
import { type AddressRule, checkAddress, createAddressPolicy, parseAllowNetworks } from '../../../../../services/runtime/outbound/address-policy.js';

const none = createAddressPolicy();

/** Address → the rule that refuses it, or `allowed`. */
const table: Array<[string, AddressRule | 'allowed']> = [
  // loopback
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  // IPv4 written the ways inet_aton and URLs take it
  ['0x7f.1', 'loopback'],
  ['0177.0.0.1', 'loopback'],
  ['2130706433', 'loopback'],
  ['127.1', 'loopback'],
  ['0x0a.0.0.1', 'private'],
  // IPv6 carrying IPv4
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'cloud-metadata'],
  ['::ffff:0:127.0.0.1', 'loopback'],
  ['::127.0.0.1', 'loopback'],
  ['::8.8.8.8', 'reserved'],
  ['64:ff9b::a9fe:a9fe', 'cloud-metadata'],
  ['64:ff9b::10.1.2.3', 'private'],
  ['2002:7f00:1::', 'loopback'],
  ['2002:c0a8:101::1', 'private'],
  // unspecified
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['::', 'unspecified'],
  ['::ffff:0.0.0.0', 'unspecified'],
  // private
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['fc00::1', 'private'],
  ['fd12:3456:789a::1', 'private'],
  ['fec0::1', 'private'],
  // link-local
  ['169.254.1.1', 'link-local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf::1', 'link-local'],
  // cloud metadata
  ['169.254.169.254', 'cloud-metadata'],
  ['169.254.170.2', 'cloud-metadata'],
  ['fd00:ec2::254', 'cloud-metadata'],
  ['100.100.100.200', 'cloud-metadata'],
  ['192.0.0.192', 'cloud-metadata'],
  // CGNAT
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  // multicast, broadcast, reserved
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['ff02::1', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.10', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['192.0.0.8', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['2001::1', 'reserved'],
  ['100::1', 'reserved'],
  ['3fff::1', 'reserved'],
  ['4000::1', 'reserved'],
  // not an address
  ['localhost', 'not-an-address'],
  ['', 'not-an-address'],
  ['1.2.3.4.5', 'not-an-address'],
  // public
  ['8.8.8.8', 'allowed'],
  ['1.1.1.1', 'allowed'],
  ['172.32.0.1', 'allowed'],
  ['100.128.0.1', 'allowed'],
  ['169.255.0.1', 'allowed'],
  ['11.0.0.1', 'allowed'],
  ['2606:4700:4700::1111', 'allowed'],
  ['::ffff:8.8.8.8', 'allowed'],
  ['64:ff9b::808:808', 'allowed'],
  ['2002:808:808::1', 'allowed'],
];

t.test('each address is refused by its rule, or allowed (no network listed)', async (t) => {
  for (const [address, expected] of table) {
    const verdict = checkAddress(address, none);
    t.equal(verdict.allowed ? 'allowed' : verdict.rule, expected, `${address} → ${expected}`);
  }
});

t.test('a refusal names the network of the rule; an address carried in IPv6 says how', async (t) => {
  t.same(checkAddress('127.0.0.1', none), { allowed: false, address: '127.0.0.1', rule: 'loopback', network: '127.0.0.0/8' });
  t.same(checkAddress('0x7f.1', none), { allowed: false, address: '127.0.0.1', rule: 'loopback', network: '127.0.0.0/8' });
  t.same(checkAddress('::ffff:127.0.0.1', none), { allowed: false, address: '::ffff:7f00:1', rule: 'loopback', network: '127.0.0.0/8 (IPv4-mapped)' });
  t.same(checkAddress('fe80::1%eth0', none), { allowed: false, address: 'fe80::1', rule: 'link-local', network: 'fe80::/10' });
  t.same(checkAddress('4000::1', none), { allowed: false, address: '4000::1', rule: 'reserved', network: 'outside 2000::/3' });
  t.same(checkAddress('8.8.8.8', none), { allowed: true, address: '8.8.8.8', listed: false });
});

t.test('OPS_NOTIFY_ALLOW_NETWORKS opens what it lists, in every form of the address, and nothing else', async (t) => {
  const policy = createAddressPolicy(parseAllowNetworks('127.0.0.1/32, 10.20.0.0/16,fd00:1::/64'));
  const verdict = (a: string): string => {
    const v = checkAddress(a, policy);
    return v.allowed ? (v.listed ? 'listed' : 'allowed') : v.rule;
  };
  t.equal(verdict('127.0.0.1'), 'listed');
  t.equal(verdict('::ffff:127.0.0.1'), 'listed');
  t.equal(verdict('0x7f.1'), 'listed');
  t.equal(verdict('127.0.0.2'), 'loopback');
  t.equal(verdict('::1'), 'loopback');
  t.equal(verdict('10.20.3.4'), 'listed');
  t.equal(verdict('10.21.0.1'), 'private');
  t.equal(verdict('fd00:1::5'), 'listed');
  t.equal(verdict('fd00:2::5'), 'private');
  t.equal(verdict('8.8.8.8'), 'allowed');
});

t.test('a cloud-metadata address is opened only by listing it exactly, never by a wider network', async (t) => {
  const wide = createAddressPolicy(parseAllowNetworks('0.0.0.0/0,169.254.0.0/16,::/0,100.64.0.0/10'));
  for (const a of ['169.254.169.254', '::ffff:169.254.169.254', 'fd00:ec2::254', '100.100.100.200']) {
    const v = checkAddress(a, wide);
    t.equal(v.allowed ? 'allowed' : v.rule, 'cloud-metadata', a);
  }
  t.equal(checkAddress('169.254.1.1', wide).allowed, true, 'the rest of link-local is opened');
  t.equal(checkAddress('10.0.0.1', wide).allowed, true, '0.0.0.0/0 opens the private networks');
  const exact = createAddressPolicy(parseAllowNetworks('169.254.169.254,fd00:ec2::254/128'));
  t.equal(checkAddress('169.254.169.254', exact).allowed, true);
  t.equal(checkAddress('fd00:ec2::254', exact).allowed, true);
  t.equal(checkAddress('169.254.169.253', exact).allowed, false);
});

t.test('parseAllowNetworks reads CIDRs and single addresses, and names what is wrong', async (t) => {
  t.same(parseAllowNetworks(' 10.0.0.0/8 , 192.168.1.5,fd00:1:0::/64,,'), [
    { address: '10.0.0.0', prefix: 8, family: 'ipv4' },
    { address: '192.168.1.5', prefix: 32, family: 'ipv4' },
    { address: 'fd00:1::', prefix: 64, family: 'ipv6' },
  ]);
  t.same(parseAllowNetworks('::ffff:127.0.0.0/104'), [{ address: '::ffff:7f00:0', prefix: 104, family: 'ipv6' }]);
  t.same(parseAllowNetworks(''), []);
  const bad: Array<[string, RegExp]> = [
    ['10.0.0.1/8', /^10\.0\.0\.1\/8 has bits set past its \/8 prefix: write 10\.0\.0\.0\/8$/],
    ['fd00::1/8', /write fd00::\/8$/],
    ['10.0.0.0/33', /prefix of an IPv4 network is at most \/32/],
    ['fd00::/129', /at most \/128/],
    ['example.com', /example\.com is not an IP address or a network in CIDR notation/],
    ['10.0.0/8', /not an IP address/],
    ['0x7f.1', /not an IP address/],
    ['10.0.0.0/', /not an IP address/],
  ];
  for (const [text, message] of bad) t.throws(() => parseAllowNetworks(text), message, text);
});

t.test('a verdict asked again is the same, and each policy keeps its own (verdicts are remembered per policy)', async (t) => {
  const open = createAddressPolicy(parseAllowNetworks('127.0.0.1/32'));
  for (let i = 0; i < 3; i++) {
    t.match(checkAddress('127.0.0.1', none), { allowed: false, rule: 'loopback' }, `refused without networks (ask ${i + 1})`);
    t.match(checkAddress('127.0.0.1', open), { allowed: true, listed: true }, `allowed where listed (ask ${i + 1})`);
  }
  for (let i = 0; i < 1100; i++) checkAddress(`203.0.${i >> 8}.${i & 255}`, none);
  t.match(checkAddress('127.0.0.1', none), { allowed: false, rule: 'loopback' }, 'still refused after more addresses than are remembered');
});
