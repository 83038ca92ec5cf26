import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readChanges } from '../../delivery/changes/change-reads';
import { scheduleChangeRetention } from '../../delivery/changes/change-retention';
import { refusePublishableKey, siteInScope } from '../../delivery/client-scope';
import { sendClientRead } from '../../delivery/http-caching';
import { HttpError } from '../../http-error';
import { limitedBy } from '../../rate-limits/rate-limits.plugin';
import { NotModifiedSchema } from '../../schemas/client-article.schema';
import { ClientChangesPageSchema, ClientChangesQuerySchema } from '../../schemas/client-changes.schema';
import { errorResponses } from '../../schemas/error.schema';
import { perKey } from './client.routes';

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
      refusePublishableKey(request);
      const { since, limit, site, initial = false } = request.query;
      if (initial && since !== undefined) {
        throw new HttpError(
          400,
          'VALIDATION_ERROR',
          'Invalid querystring: initial and since cannot be combined',
        );
      }
      const view = await siteInScope(request, site);
      const answer = await readChanges(app.clientContent.reads, view, { since, limit, initial });
      return sendClientRead(request, reply, answer);
    },
  );
};
