export {
  type AddressPolicy,
  isIpLiteral,
  isPublicAddress,
  isPublicHttpUrl,
  isPublicImageUrl,
  stripBrackets,
} from './address-policy';
export { createDecoders, type DecompressedBody, openDecompressed } from './decompress';
export {
  EgressError,
  type EgressErrorCode,
  findEgressError,
  findInCauses,
  refusedAddressError,
  tooLargeError,
} from './egress-error';
export { createCheckingLookup, createGuardedAgent, type GuardedAgentOptions } from './guarded-agent';
export { asCorruptCompression, readCappedBody } from './read-capped-body';
export { parseRetryAfter } from './retry-after';
