import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { type AddressPolicy, isIpLiteral, stripBrackets } from './address-policy';
import { refusedAddressError } from './egress-error';

/** Options for {@link createGuardedAgent}. */
export interface GuardedAgentOptions {
  isAllowedAddress: AddressPolicy;
  /** Name resolution; dns.lookup unless a test or a caching resolver is plugged in. */
  lookup?: LookupFunction;
  connectTimeoutMs: number;
  /** Cap on bytes received on the wire (the decompressed cap is enforced separately). */
  maxResponseBytes: number;
}

/**
 * An undici Agent whose every connection is checked at connect time: IP literals before the socket is
 * created, hostnames inside the DNS lookup net.connect performs. Because the address checked is the one
 * connected to, DNS rebinding and redirects to internal hosts cannot slip past the policy.
 */
export function createGuardedAgent(options: GuardedAgentOptions): Agent {
  const lookup = createCheckingLookup(
    options.isAllowedAddress,
    options.lookup ?? (dns.lookup as LookupFunction),
  );
  const baseConnect = buildConnector({ timeout: options.connectTimeoutMs, lookup });

  const connect: buildConnector.connector = (connectOptions, callback) => {
    // net.connect skips the lookup function for IP literals, so they are judged here instead.
    const host = stripBrackets(connectOptions.hostname);
    if (isIpLiteral(host) && !options.isAllowedAddress(host)) {
      callback(refusedAddressError(), null);
      return;
    }
    baseConnect(connectOptions, callback);
  };

  return new Agent({ connect, maxResponseSize: options.maxResponseBytes });
}

/**
 * Wraps a lookup so that only allowed addresses reach net.connect. Addresses the policy refuses are
 * dropped; when none remain the connection fails with an EgressError REFUSED_ADDRESS before any packet is sent.
 */
export function createCheckingLookup(
  isAllowedAddress: AddressPolicy,
  lookup: LookupFunction,
): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    // Ask for every address so that none is picked before it has been checked.
    lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const list = Array.isArray(addresses) ? addresses : [{ address: addresses, family: isIP(addresses) }];
      const allowed = list.filter((entry) => isAllowedAddress(entry.address));
      const first = allowed[0];
      if (!first) {
        callback(refusedAddressError(), '', 0);
        return;
      }
      // Happy-eyeballs (autoSelectFamily) asks for all addresses; a plain connect wants one.
      if (lookupOptions.all) callback(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
}
