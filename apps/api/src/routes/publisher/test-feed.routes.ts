import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { previewFeed } from '../../feeds/preview-feed';
import { limitedBy, perDashboardUser } from '../../rate-limits/rate-limits.plugin';
import { errorResponses } from '../../schemas/error.schema';
import { FeedPreviewSchema, TestFeedBodySchema } from '../../schemas/feed-import.schema';

/** Publisher self-service: preview a feed before saving it. Prefix /publisher. */
export const testFeedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/me/test-feed',
    {
      // A preview: nothing is saved, so no audit row.
      config: { ...limitedBy(app.config.rateLimits.testFeed, 'test-feed', perDashboardUser), audit: false },
      schema: {
        tags: ['feed import'],
        summary: 'Preview a feed',
        description:
          'The first 5 items of the feed exactly as the import would store them for the logged-in publisher. Saves nothing. 422 with the reason (NOT_A_FEED, TOO_LARGE, TIMEOUT, REFUSED_ADDRESS, ...) when the feed cannot be read.',
        security: [{ bearerAuth: [] }],
        body: TestFeedBodySchema,
        response: { 200: FeedPreviewSchema, ...errorResponses(400, 401, 403, 422, 429, 503) },
      },
    },
    async (request) =>
      previewFeed(app, request.user.id, request.user.publisherId as string, request.body.feedUrl),
  );
};
