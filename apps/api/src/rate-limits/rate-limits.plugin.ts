import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { RateLimit } from '@newsroom/config';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http-error';
import { type FailedApiKeyCounter, failedApiKeyCounter } from './failed-api-key-limit';
import { type BucketOptions, redisRateLimitStore } from './redis-rate-limit-store';

declare module 'fastify' {
  interface FastifyInstance {
    /** Called by the client key guard when a key is wrong (see failed-api-key-limit.ts). */
    countFailedApiKey: FailedApiKeyCounter;
  }
}

/** A count that takes longer than this skips the limit for that request. */
export const rateLimitTimeoutMs = 250;
const warningIntervalMs = 10_000;

/**
 * @fastify/rate-limit with its counters in Redis, so every API replica shares them. Nothing is limited
 * unless a route asks (`config: limitedBy(...)`). Limits fail open: while Redis is down or slow a request
 * is let through (client reads must survive a Redis outage), with a warning at most every 10 seconds.
 * Answers 429 RATE_LIMITED with Retry-After and the draft standard RateLimit-* headers.
 */
export const rateLimitsPlugin = fp(async (app: FastifyInstance) => {
  let lastWarning = 0;
  await app.register(rateLimit, {
    global: false,
    enableDraftSpec: true,
    skipOnError: true,
    store: redisRateLimitStore({
      redis: app.redis,
      keyPrefix: app.config.redis.queuePrefix,
      timeoutMs: rateLimitTimeoutMs,
      onError(error) {
        if (Date.now() - lastWarning < warningIntervalMs) return;
        lastWarning = Date.now();
        app.log.warn({ err: error.message }, 'rate limits skipped: Redis unavailable');
      },
    }),
    errorResponseBuilder: (_request, context) =>
      new HttpError(
        429,
        'RATE_LIMITED',
        `Too many requests: at most ${context.max} in this window; retry in ${context.after}`,
      ),
  });
  app.decorate('countFailedApiKey', failedApiKeyCounter(app, app.config.rateLimits.apiKeyFailures));
});

/**
 * A route's `config` for one limit: counted per `keyOf(request)` in `bucket` (routes naming the same
 * bucket share their counters), after authentication and validation (preHandler), so only requests that
 * would do the work are counted. `{}` when the limit is off: no hook at all, no Redis round trip.
 */
export function limitedBy(
  limit: RateLimit | null,
  bucket: string,
  keyOf: (request: FastifyRequest) => string,
): { rateLimit?: RateLimitOptions } {
  if (!limit) return {};
  const options: RateLimitOptions & BucketOptions = {
    bucket,
    max: limit.max,
    timeWindow: limit.windowMs,
    keyGenerator: keyOf,
    hook: 'preHandler',
  };
  return { rateLimit: options };
}

/** Key of limits on dashboard routes: the authenticated user (set by the subtree's role guard). */
export const perDashboardUser = (request: FastifyRequest) => request.user.id;
