export {
  type AddressPolicy,
  isIpLiteral,
  isPublicAddress,
  isPublicHttpUrl,
  isPublicImageUrl,
  stripBrackets,
} from './address-policy';
export { type DecompressedBody, openDecompressed } from './decompress';
export {
  EgressError,
  type EgressErrorCode,
  findEgressError,
  findInCauses,
  refusedAddressError,
  tooLargeError,
} from './egress-error';
export { createGuardedAgent, type GuardedAgentOptions } from './guarded-agent';
export { readCappedBody, readCappedPieces } from './read-capped-body';
export { parseRetryAfter } from './retry-after';
