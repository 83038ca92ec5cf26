import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  getPublisher,
  isNewFeedAddress,
  listPublisherArticles,
  resumePublisherFeed,
  saveOwnFeedReportingChange,
} from '@newsroom/domain';
import type { FastifyRequest } from 'fastify';
import { enqueueFirstImport } from '../../feeds/enqueue-first-import';
import { feedUrlChangeCounter } from '../../feeds/feed-url-change-limit';
import { HttpError } from '../../http-error';
import { errorResponses } from '../../schemas/error.schema';
import { paginationMeta } from '../../schemas/pagination.schema';
import {
  OwnArticlesQuerySchema,
  OwnArticlesSchema,
  PublisherDetailSchema,
  SaveFeedBodySchema,
} from '../../schemas/publisher.schema';
import { toPublisherBody } from './publisher-body';

const tags = ['publisher self-service'];
const security = [{ bearerAuth: [] }];
const guarded = errorResponses(401, 403);

/**
 * The logged-in publisher's own record. There is no id in these paths: the publisher is always
 * the one of the token's login, so one publisher can never name another's.
 */
function ownPublisherId(request: FastifyRequest): string {
  const { publisherId } = request.user;
  if (!publisherId) throw new HttpError(403, 'FORBIDDEN', 'This route is for publishers');
  return publisherId;
}

/** Publisher self-service (publishers only; the role hook sits on the subtree). Prefix: /api/v1/publisher/me. */
export const publisherSelfRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const countFeedUrlChange = feedUrlChangeCounter(app, app.config.rateLimits.feedUrlChanges);

  app.get(
    '',
    {
      schema: {
        tags,
        security,
        summary: 'My publisher record: feed settings, fetch state, article counts',
        response: { 200: PublisherDetailSchema, ...guarded },
      },
    },
    async (request) => toPublisherBody(await getPublisher(app.db, ownPublisherId(request))),
  );

  app.put(
    '/feed',
    {
      schema: {
        tags,
        security,
        summary: 'Save my feed address and default tags',
        description:
          'A new address of an approved, enabled publisher gets its first import queued at once (one per publisher at a time: a newer address replaces a queued one). New addresses are limited per publisher (RATE_LIMIT_FEED_URL_CHANGES, 5 an hour by default): past it, 429 FEED_URL_CHANGES_LIMITED with Retry-After and nothing saved.',
        body: SaveFeedBodySchema,
        response: { 200: PublisherDetailSchema, ...guarded, ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      const publisherId = ownPublisherId(request);
      if (await isNewFeedAddress(app.db, publisherId, request.body.feedUrl))
        await countFeedUrlChange(request);
      const { publisher, addressChanged } = await saveOwnFeedReportingChange(
        app.db,
        publisherId,
        request.body,
      );
      if (addressChanged) {
        await enqueueFirstImport(app.feedImportQueue, app.redis, publisher, request.log, request.id);
      }
      return toPublisherBody(publisher);
    },
  );

  app.put(
    '/feed/resume',
    {
      schema: {
        tags,
        security,
        summary: 'Resume my feed after it was paused (10 failed fetches in a row)',
        description:
          'The next hourly run fetches it again. Resuming a feed that is not paused changes nothing.',
        response: { 200: PublisherDetailSchema, ...guarded },
      },
    },
    async (request) => toPublisherBody(await resumePublisherFeed(app.db, ownPublisherId(request))),
  );

  app.get(
    '/articles',
    {
      schema: {
        tags,
        security,
        summary: 'My imported articles, newest first, with counts by status',
        querystring: OwnArticlesQuerySchema,
        response: { 200: OwnArticlesSchema, ...guarded, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { page, limit, status } = request.query;
      const result = await listPublisherArticles(
        app.db,
        ownPublisherId(request),
        { status },
        { page, limit },
      );
      return {
        data: result.items,
        meta: { pagination: paginationMeta({ page, limit }, result.total), counts: result.counts },
      };
    },
  );
};
