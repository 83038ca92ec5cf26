import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { applyBulkArticleAction, checkArticleSlug } from '@newsroom/domain';
import { revisionWriteOf } from '../../articles/revision-write';
import {
  BulkArticleBodySchema,
  BulkArticleResponseSchema,
  SlugCheckQuerySchema,
  SlugCheckSchema,
} from '../../schemas/article-bulk.schema';
import { errorResponses } from '../../schemas/error.schema';

const tags = ['articles'];
const security = [{ bearerAuth: [] }];

/** What the editorial views need beside single-article routes: bulk transitions, the slug check. Prefix /article. */
export const articleBulkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/bulk',
    {
      schema: {
        tags,
        security,
        summary:
          'Publish, unpublish, approve, reject, move back to pending or delete up to 100 articles; one result per id, in order (one refusal does not stop the others)',
        body: BulkArticleBodySchema,
        response: { 200: BulkArticleResponseSchema, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request) => ({
      results: await applyBulkArticleAction(
        app.db,
        request.body.action,
        request.body.ids,
        request.body.reason ?? null,
        revisionWriteOf(request, 'bulk'),
      ),
    }),
  );

  app.get(
    '/slug-available',
    {
      schema: {
        tags,
        security,
        summary: 'Whether a slug is well-formed and free (for the editor; the save still decides)',
        querystring: SlugCheckQuerySchema,
        response: { 200: SlugCheckSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => checkArticleSlug(app.db, request.query.slug, request.query.exceptId),
  );
};
