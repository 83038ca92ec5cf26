import ipaddr from 'ipaddr.js';

/** Decides whether the fetcher may connect to an IP address (given as text, IPv4 or IPv6). */
export type AddressPolicy = (address: string) => boolean;

/**
 * The default policy: only publicly routable unicast addresses pass.
 *
 * Refused: loopback, RFC 1918, link-local (incl. 169.254.169.254 cloud metadata, fe80::/10), CGNAT
 * 100.64/10, unique-local fc00::/7, multicast, unspecified, broadcast, reserved/documentation ranges,
 * and IPv4-mapped IPv6 (::ffff:a.b.c.d) whose IPv4 part is any of those. The well-known NAT64 prefix
 * 64:ff9b::/96 is judged by the IPv4 address it embeds, because DNS64 networks hand those out for
 * ordinary public hosts. 6to4, Teredo, other NAT64 prefixes and IPv4-compatible ::a.b.c.d addresses
 * are refused outright: they are deprecated and can tunnel to arbitrary IPv4 addresses.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';

  const ipv6 = parsed as ipaddr.IPv6;
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().range() === 'unicast';
  const embedded = embeddedNat64Address(ipv6);
  if (embedded) return embedded.range() === 'unicast';
  if (isIpv4Compatible(ipv6)) return false;
  return ipv6.range() === 'unicast';
}

/** True when the text is a literal IPv4 or IPv6 address (brackets allowed, as in URL hostnames). */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(stripBrackets(host));
}

/** Removes the [ ] that URLs put around IPv6 literals. */
export function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const text = stripBrackets(address);
  // isValid also accepts odd IPv4 forms ("0x7f.1"); parse() normalises them, so judge the parsed value.
  if (!ipaddr.isValid(text)) return undefined;
  try {
    // Zone ids (fe80::1%eth0) only make sense for link-local, which is refused anyway.
    return ipaddr.parse(text);
  } catch {
    return undefined;
  }
}

// 64:ff9b::/96, RFC 6052: the last 32 bits are the IPv4 destination.
function embeddedNat64Address(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const parts = address.parts;
  const isWellKnownPrefix =
    parts[0] === 0x64 && parts[1] === 0xff9b && parts.slice(2, 6).every((p) => p === 0);
  if (!isWellKnownPrefix) return undefined;
  const high = parts[6] ?? 0;
  const low = parts[7] ?? 0;
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

// ::a.b.c.d (deprecated IPv4-compatible form); ipaddr.js reports these as plain unicast.
function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  return address.parts.slice(0, 6).every((p) => p === 0);
}

// Host names that can only mean a machine inside the network they are read in: RFC 6761/6762 and
// RFC 8375 special-use names and the common private suffixes. No DNS lookup: an image URL is not
// fetched by us but by every reader's browser, inside the reader's own network.
const INTERNAL_NAME = /(^|\.)(localhost|local|localdomain|internal|intranet|lan|home\.arpa|corp)\.?$/i;

/**
 * Whether an absolute http(s) URL may be shown to readers as an image: its host is not a literal
 * address the fetch policy refuses (loopback, private, link-local, metadata, ...) and not an
 * obviously internal name (`localhost`, `*.local`, `*.internal`, a single label such as `intranet`).
 * Names are judged by their text only; no DNS lookup is made.
 */
export function isPublicImageUrl(url: string): boolean {
  let hostname: string;
  try {
    // The URL parser normalises odd IPv4 forms (0x7f.1, 2130706433) to dotted quads.
    hostname = new URL(url).hostname;
  } catch {
    return false;
  }
  if (hostname === '') return false;
  if (isIpLiteral(hostname)) return isPublicAddress(stripBrackets(hostname));
  const name = hostname.replace(/\.$/, '');
  return name.includes('.') && !INTERNAL_NAME.test(name);
}

/**
 * Whether an absolute http(s) URL names a host that may be public: the text checks of isPublicImageUrl (no
 * refused IP literal, no internal name). Used to refuse webhook targets when they are registered; the
 * guarded agent still checks the address actually connected to on every request.
 */
export function isPublicHttpUrl(url: string): boolean {
  return isPublicImageUrl(url);
}
