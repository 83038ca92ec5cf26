import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getImportablePublisher } from '@newsroom/domain';
import { enqueueImport } from '../../feeds/enqueue-import';
import { previewFeed } from '../../feeds/preview-feed';
import { errorResponses } from '../../schemas/error.schema';
import {
  AdminTestFeedBodySchema,
  FeedPreviewSchema,
  ImportJobSchema,
  PublisherIdParamsSchema,
} from '../../schemas/feed-import.schema';

/** Administrators: re-trigger a publisher's import now; preview any publisher's feed. Prefix /publisher. */
export const feedImportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/:id/import',
    {
      schema: {
        tags: ['feed import'],
        summary: "Fetch a publisher's feed now",
        description:
          'Queues a fetch of the feed; repeated calls while one is queued return the same job id. 503 when the queue is unavailable.',
        security: [{ bearerAuth: [] }],
        params: PublisherIdParamsSchema,
        response: { 202: ImportJobSchema, ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request, reply) => {
      await getImportablePublisher(app.db, request.params.id);
      const jobId = await enqueueImport(app.feedImportQueue, app.redis, request.params.id);
      return reply.status(202).send({ jobId });
    },
  );

  app.post(
    '/:id/test-feed',
    {
      schema: {
        tags: ['feed import'],
        summary: "Preview a publisher's feed",
        description:
          'The first 5 items exactly as the import would store them for this publisher (feedUrl defaults to the saved one). Saves nothing. 422 with the reason when the feed cannot be read.',
        security: [{ bearerAuth: [] }],
        params: PublisherIdParamsSchema,
        body: AdminTestFeedBodySchema,
        response: { 200: FeedPreviewSchema, ...errorResponses(400, 401, 403, 404, 422, 503) },
      },
    },
    async (request) => previewFeed(app, request.params.id, request.body.feedUrl),
  );
};
