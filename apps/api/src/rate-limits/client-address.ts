import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key a limit counts a client address under: an IPv4 address as it is, an IPv6 address by its /64
 * (one subscriber usually holds a whole /64, so counting single addresses would give an attacker 2^64 fresh
 * ones), an IPv4-mapped IPv6 address as its IPv4 form. What @fastify/rate-limit's default key does; every
 * per-address limit of the API (wrong API keys, failed logins) uses this one function.
 */
export function clientAddressKey(ip: string): string {
  if (!isIPv6(ip)) return ip.toLowerCase();
  const groups = ipv6Groups(ip.replace(/%.*$/, ''));
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(ip: string): number[] {
  let text = ip.toLowerCase();
  const tail = text.slice(text.lastIndexOf(':') + 1);
  if (isIPv4(tail)) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = `${text.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const front = parse(head);
  const back = rest === undefined ? [] : parse(rest);
  return [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
}
