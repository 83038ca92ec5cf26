import { createFeedFetcher } from '@newsroom/feeds';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createConcurrencyLimit } from '../feeds/concurrency-limit';

/**
 * One safe feed fetcher for the app (its own connection pool), with the worker's rules: public
 * addresses only unless FEED_ALLOW_PRIVATE_ADDRESSES (development and tests), 20 s, 15 MiB; and the
 * count of previews running at once (in all, and per dashboard user).
 */
export const feedFetcherPlugin = fp(async (app: FastifyInstance) => {
  const { allowPrivateAddresses, userAgent } = app.config.feeds;
  if (allowPrivateAddresses) {
    // Same warning as the worker's: test-feed previews could otherwise probe the internal network.
    app.log.warn('FEED_ALLOW_PRIVATE_ADDRESSES is on: feeds may reach private networks (development only)');
  }
  const fetcher = createFeedFetcher({ allowPrivateAddresses, userAgent });
  app.decorate('feedFetcher', fetcher);
  const { concurrency, concurrencyPerUser } = app.config.feedPreview;
  app.decorate('feedPreviews', createConcurrencyLimit(concurrency, concurrencyPerUser));
  app.addHook('onClose', () => fetcher.close());
});
