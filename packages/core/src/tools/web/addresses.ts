/**
 * Which hosts web_fetch may not reach unless private-network fetching is allowed: loopback,
 * private (RFC 1918), CGNAT, link-local (which holds the cloud metadata endpoints), unique-local
 * IPv6 and other non-public ranges. A model can be talked into fetching an internal admin page or
 * credentials from a metadata service by content it read elsewhere; refusing these ranges keeps
 * web_fetch to the public web.
 *
 * Addresses are parsed here rather than matched as strings, because the same address has many
 * spellings (`::ffff:7f00:1` is 127.0.0.1, `0:0:0:0:0:0:0:1` is ::1).
 */

/** Host names refused without asking DNS: they name the local machine or a metadata service. */
const BLOCKED_NAMES = new Set(['localhost', 'metadata', 'metadata.google.internal', 'instance-data']);

/** IPv4 ranges as [network, prefix length]. */
const BLOCKED_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT (also Alibaba's metadata endpoint 100.100.100.200)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (some metadata services live here)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
];

const BLOCKED_V4_NUMERIC = BLOCKED_V4.map(([network, prefix]) => {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return { base: (parseIPv4(network)! & mask) >>> 0, mask };
});

/** True for a host name that must not be fetched whatever it resolves to. */
export function isBlockedHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return BLOCKED_NAMES.has(name) || name.endsWith('.localhost');
}

/**
 * True for an IP address (v4 or v6, with or without brackets) outside the public internet.
 * Strings that are not IP addresses return false: host names are checked after resolution.
 */
export function isBlockedAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const v4 = parseIPv4(bare);
  if (v4 !== undefined) return isBlockedV4(v4);
  const v6 = parseIPv6(bare);
  if (v6 === undefined) return false;
  return isBlockedV6(v6);
}

/** True when `value` is an IP address literal (so no DNS lookup happens for it). */
export function isIpLiteral(value: string): boolean {
  const bare = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
  return parseIPv4(bare) !== undefined || parseIPv6(bare) !== undefined;
}

function isBlockedV4(address: number): boolean {
  return BLOCKED_V4_NUMERIC.some(({ base, mask }) => (address & mask) >>> 0 === base);
}

function isBlockedV6(groups: number[]): boolean {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const embeddedV4 = ((g6 << 16) | g7) >>> 0;
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (deprecated compatible, also :: and ::1) carry IPv4.
  if (firstFiveZero && g5 === 0xffff) return isBlockedV4(embeddedV4);
  if (firstFiveZero && g5 === 0) return g6 === 0 ? true : isBlockedV4(embeddedV4);
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) reach an IPv4 address through a gateway.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return isBlockedV4(embeddedV4);
  }
  if (g0 === 0x2002) return isBlockedV4(((g1 << 16) | g2) >>> 0);
  if ((g0 & 0xfe00) === 0xfc00) return true; // unique local fc00::/7 (AWS metadata fd00:ec2::254)
  if ((g0 & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return true; // site-local fec0::/10 (deprecated, still routable inside)
  if ((g0 & 0xff00) === 0xff00) return true; // multicast
  return false;
}

/** Dotted-quad IPv4 as an unsigned 32-bit number; undefined for anything else. */
export function parseIPv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

/** IPv6 as eight 16-bit groups (a zone id such as `%eth0` is ignored); undefined if invalid. */
export function parseIPv6(text: string): number[] | undefined {
  const withoutZone = text.split('%')[0]!;
  if (!withoutZone.includes(':')) return undefined;
  const halves = withoutZone.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const groups = (pieces: string[]): number[] | undefined => {
    const out: number[] = [];
    for (const [index, piece] of pieces.entries()) {
      // The last piece may be an embedded dotted IPv4 address (two groups).
      if (index === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIPv4(piece);
        if (v4 === undefined) return undefined;
        out.push(v4 >>> 16, v4 & 0xffff);
        continue;
      }
      if (!/^[0-9a-f]{1,4}$/i.test(piece)) return undefined;
      out.push(Number.parseInt(piece, 16));
    }
    return out;
  };
  const headGroups = groups(halves.length === 2 ? head : withoutZone.split(':'));
  if (!headGroups) return undefined;
  if (halves.length === 1) return headGroups.length === 8 ? headGroups : undefined;
  // A dotted tail only counts when it ends the address, so parse it with the tail pieces.
  if (head.some((piece) => piece.includes('.'))) return undefined;
  const tailGroups = groups(tail);
  if (!tailGroups) return undefined;
  const missing = 8 - headGroups.length - tailGroups.length;
  if (missing < 1) return undefined;
  return [...headGroups, ...new Array<number>(missing).fill(0), ...tailGroups];
}
