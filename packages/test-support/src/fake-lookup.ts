import type { LookupAddress } from 'node:dns';
import net, { type LookupFunction } from 'node:net';

/** A resolver that never touches real DNS: every name maps to the given addresses; `calls` lists the names asked. */
export function fakeLookup(table: Record<string, string[]>): LookupFunction & { calls: string[] } {
  const calls: string[] = [];
  const lookup = ((hostname, _options, callback) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    const all: LookupAddress[] = addresses.map((address) => ({ address, family: net.isIP(address) }));
    callback(null, all);
  }) as LookupFunction & { calls: string[] };
  lookup.calls = calls;
  return lookup;
}
