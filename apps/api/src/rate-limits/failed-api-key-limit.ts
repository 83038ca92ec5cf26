import type { RateLimit } from '@newsroom/config';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error';
import { clientAddressKey } from './client-address';
import type { BucketOptions } from './redis-rate-limit-store';

/** Counts one wrong client key against the caller's address; throws 429 RATE_LIMITED past the limit. */
export type FailedApiKeyCounter = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Wrong API keys per client address (IPv6: per /64, clientAddressKey, as the login limiter counts). Only failures are counted,
 * and only after the key was checked: a valid key is never refused by this limit and costs no Redis round
 * trip, so a child site whose old key is still deployed somewhere does not lock out its new one.
 * While Redis is unavailable nothing is counted (the plugin's skipOnError) and wrong keys get their 401.
 */
export function failedApiKeyCounter(app: FastifyInstance, limit: RateLimit | null): FailedApiKeyCounter {
  if (!limit) return async () => {};
  const options: BucketOptions = { bucket: 'api-key-failures' };
  const count = app.createRateLimit({
    ...options,
    max: limit.max,
    timeWindow: limit.windowMs,
    keyGenerator: (request) => clientAddressKey(request.ip),
  });
  return async (request, reply) => {
    const state = await count(request);
    if (state.isAllowed || state.ttl === 0) return; // not counted (Redis unavailable)
    reply.headers({
      'ratelimit-limit': state.max,
      'ratelimit-remaining': state.remaining,
      'ratelimit-reset': state.ttlInSeconds,
    });
    if (state.isExceeded) {
      throw new HttpError(
        429,
        'RATE_LIMITED',
        `Too many wrong API keys from this address; retry in ${state.ttlInSeconds} seconds`,
        { 'retry-after': String(state.ttlInSeconds) },
      );
    }
  };
}
