import type { RateLimit } from '@newsroom/config';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error';
import type { BucketOptions } from '../rate-limits/redis-rate-limit-store';

/** Counts one new feed address of the request's publisher; throws 429 FEED_URL_CHANGES_LIMITED past the limit. */
export type FeedUrlChangeCounter = (request: FastifyRequest) => Promise<void>;

const windowText = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} minutes` : `${ms / 1000} seconds`);

/**
 * New feed addresses per publisher (RATE_LIMIT_FEED_URL_CHANGES). Each new address queues a fetch of it at
 * once, so without a bound a publisher could make the service fetch any host as fast as it can save a form.
 * Only changes are counted (the handler asks first): saving the same address, tags only or removing the feed
 * is free. While Redis is unavailable nothing is counted (the plugin's skipOnError); no first import can be
 * queued then either.
 */
export function feedUrlChangeCounter(app: FastifyInstance, limit: RateLimit | null): FeedUrlChangeCounter {
  if (!limit) return async () => {};
  const options: BucketOptions = { bucket: 'feed-url-changes' };
  const count = app.createRateLimit({
    ...options,
    max: limit.max,
    timeWindow: limit.windowMs,
    // Publisher routes only: the role guard has set a publisher login.
    keyGenerator: (request) => request.user.publisherId ?? request.user.id,
  });
  return async (request) => {
    const state = await count(request);
    if (state.isAllowed || !state.isExceeded) return;
    const seconds = Math.max(1, state.ttlInSeconds);
    throw new HttpError(
      429,
      'FEED_URL_CHANGES_LIMITED',
      `Too many feed address changes: at most ${limit.max} new feed addresses in ${windowText(limit.windowMs)}; try again in ${seconds} seconds`,
      { 'retry-after': String(seconds) },
    );
  };
}
