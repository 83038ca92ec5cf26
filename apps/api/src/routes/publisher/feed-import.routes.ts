import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getImportablePublisher, getPublisherHistory } from '@newsroom/domain';
import { enqueueImport } from '../../feeds/enqueue-import';
import { readImportStatus } from '../../feeds/import-status';
import { previewFeed } from '../../feeds/preview-feed';
import { limitedBy, perDashboardUser } from '../../rate-limits/rate-limits.plugin';
import { errorResponses } from '../../schemas/error.schema';
import {
  AdminTestFeedBodySchema,
  FeedPreviewSchema,
  ImportJobParamsSchema,
  ImportJobSchema,
  ImportStatusSchema,
  PublisherHistorySchema,
  PublisherIdParamsSchema,
} from '../../schemas/feed-import.schema';

/** Administrators: re-trigger a publisher's import now and follow it; preview any publisher's feed. Prefix /publisher. */
export const feedImportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/:id/import',
    {
      schema: {
        tags: ['feed import'],
        summary: "Fetch a publisher's feed now",
        description:
          'Queues a fetch of the feed; a call while the previous one is queued or running, or within a minute after it finished, returns that job id instead. Follow it with GET /publisher/:id/import/:jobId. 503 when the queue is unavailable.',
        security: [{ bearerAuth: [] }],
        params: PublisherIdParamsSchema,
        response: { 202: ImportJobSchema, ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request, reply) => {
      const { id, name } = await getImportablePublisher(app.db, request.params.id);
      const jobId = await enqueueImport(app.feedImportQueue, app.redis, { id, name }, request.id);
      return reply.status(202).send({ jobId });
    },
  );

  app.get(
    '/:id/import/:jobId',
    {
      schema: {
        tags: ['feed import'],
        summary: 'Where an import job stands, with its outcome once it ends',
        description:
          'state waiting | active | completed | failed; outcome { fetched, inserted, skipped, filtered, waiting, notModified } once completed; error { code, message, detail } once failed. 404 IMPORT_JOB_NOT_FOUND for a job of another publisher or one no longer kept.',
        security: [{ bearerAuth: [] }],
        params: ImportJobParamsSchema,
        response: { 200: ImportStatusSchema, ...errorResponses(400, 401, 403, 404, 503) },
      },
    },
    async (request) =>
      readImportStatus(app.feedImportQueue, app.redis, request.params.id, request.params.jobId),
  );

  app.get(
    '/:id/history',
    {
      schema: {
        tags: ['feed import'],
        summary: 'What the import changed on a publisher by itself: a moved feed URL, a feed gone',
        description:
          'Newest first, at most 100. A permanent redirect (301/308) seen on 3 consecutive fetches moves the stored feed URL (feed-url-moved); a 410 Gone stops polling (feed-gone).',
        security: [{ bearerAuth: [] }],
        params: PublisherIdParamsSchema,
        response: { 200: PublisherHistorySchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ data: await getPublisherHistory(app.db, request.params.id) }),
  );

  app.post(
    '/:id/test-feed',
    {
      // A preview: nothing is saved, so no audit row.
      config: { ...limitedBy(app.config.rateLimits.testFeed, 'test-feed', perDashboardUser), audit: false },
      schema: {
        tags: ['feed import'],
        summary: "Preview a publisher's feed",
        description:
          'The first 5 items exactly as the import would store them for this publisher (feedUrl defaults to the saved one). Saves nothing. 422 with the reason when the feed cannot be read.',
        security: [{ bearerAuth: [] }],
        params: PublisherIdParamsSchema,
        body: AdminTestFeedBodySchema,
        response: { 200: FeedPreviewSchema, ...errorResponses(400, 401, 403, 404, 422, 429, 503) },
      },
    },
    async (request) => previewFeed(app, request.user.id, request.params.id, request.body.feedUrl),
  );
};
