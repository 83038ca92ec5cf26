import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChangesExpiredError, digestApiKey } from '@newsroom/domain';
import type { FastifyRequest } from 'fastify';
import { decodeCursor, decodeSnapshotCursor } from '../../delivery/changes/change-cursor';
import { changePage, startOfChanges } from '../../delivery/changes/change-page';
import { scheduleChangeRetention } from '../../delivery/changes/change-retention';
import { snapshotPage, startSnapshot } from '../../delivery/changes/change-snapshot';
import { articleWriter } from '../../delivery/client-reads';
import { presentedKey, siteIdInScope } from '../../delivery/client-scope';
import { matchesIfNoneMatch } from '../../delivery/http-caching';
import { etagOf } from '../../delivery/response-bytes';
import { HttpError } from '../../http-error';
import { limitedBy } from '../../rate-limits/rate-limits.plugin';
import { NotModifiedSchema } from '../../schemas/client-article.schema';
import { ClientChangesPageSchema, ClientChangesQuerySchema } from '../../schemas/client-changes.schema';
import { errorResponses } from '../../schemas/error.schema';

const perKey = (request: FastifyRequest) => digestApiKey(presentedKey(request) ?? '').toString('base64url');

/**
 * GET /client/changes: the change feed (docs/client-api.md#change-feed-clientchanges). Never kept by the API's
 * caches: each answer depends on the cursor and on what has committed since. The key guard of the client subtree has set request.clientScope.
 */
export const clientChangesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  scheduleChangeRetention(app);
  app.get(
    '/changes',
    {
      config: limitedBy(app.config.rateLimits.client, 'client', perKey),
      schema: {
        summary: 'Changes visible to this key since a cursor (upserts and deletions), oldest first',
        tags: ['client'],
        security: [{ apiKeyHeader: [] }, { apiKeyQuery: [] }],
        querystring: ClientChangesQuerySchema,
        response: {
          200: ClientChangesPageSchema,
          304: NotModifiedSchema,
          ...errorResponses(400, 401, 403, 410, 429),
        },
      },
    },
    async (request, reply) => {
      const { since, limit, site, initial = false } = request.query;
      if (initial && since !== undefined) {
        throw new HttpError(
          400,
          'VALIDATION_ERROR',
          'Invalid querystring: initial and since cannot be combined',
        );
      }
      const siteId = await siteIdInScope(request, site);
      // The body is JSON written by change-page.ts to the response schema's shape (as the other client reads do).
      // A poller that is caught up gets the same body for the same cursor: If-None-Match then answers 304.
      const send = (body: Buffer) => {
        const etag = etagOf(body);
        reply.header('cache-control', 'private, no-cache').header('etag', etag);
        if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send(null);
        return reply.type('application/json; charset=utf-8').send(body as never);
      };
      const scope = { siteId, siteSlug: siteId === null ? null : (site ?? request.clientScope.siteSlug) };
      const { db, caches, serializers } = request.server.clientContent.reads;
      // Upserts carry the article as /client/article/:slug writes it for this scope (url or urls).
      const serializeArticle = await articleWriter({ db, serializers }, null, scope);
      const sources = { db, articleJson: caches.articleJson, serializeArticle };
      if (initial) return send(await startSnapshot(sources, scope, limit));
      if (since === undefined) return send(await startOfChanges(request.server.db));
      const snapshot = decodeSnapshotCursor(since);
      if (snapshot) return send(await snapshotPage(sources, scope, snapshot, limit));
      const after = decodeCursor(since);
      if (!after) throw new HttpError(400, 'INVALID_CURSOR', 'since is not a cursor this API handed out');
      try {
        return send(await changePage(sources, scope, after, limit));
      } catch (error) {
        if (!(error instanceof ChangesExpiredError)) throw error;
        throw new HttpError(
          410,
          'CURSOR_EXPIRED',
          'Changes after this cursor are past retention: read /client/all again, then follow /client/changes from a new cursor',
        );
      }
    },
  );
};
