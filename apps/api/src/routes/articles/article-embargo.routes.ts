import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { setArticleEmbargo } from '@newsroom/domain';
import { withEtag } from '../../articles/article-version';
import { revisionWriteOf } from '../../articles/revision-write';
import { ArticleIdParamsSchema, VersionedArticleResponseSchema } from '../../schemas/article.schema';
import { errorResponses } from '../../schemas/error.schema';
import { EmbargoBodySchema } from '../../schemas/schedule.schema';

/** An article's embargo. Prefix /article. */
export const articleEmbargoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.put(
    '/:id/embargo',
    {
      schema: {
        tags: ['articles', 'schedule'],
        security: [{ bearerAuth: [] }],
        summary:
          'Set or lift the embargo: before embargoUntil the article appears on no child-site route (lists, by slug, /all, search, counts, feeds, sitemaps, change feed, webhooks). A published article is taken back to draft now and a publish is scheduled at embargoUntil, when it appears everywhere at once; scheduled publishes due earlier move to embargoUntil. Publishing is refused (409 ARTICLE_EMBARGOED) until then',
        params: ArticleIdParamsSchema,
        body: EmbargoBodySchema,
        response: { 200: VersionedArticleResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { embargoUntil } = request.body;
      const until = embargoUntil === null ? null : new Date(embargoUntil);
      return withEtag(
        reply,
        await setArticleEmbargo(
          app.db,
          request.params.id,
          until,
          request.user.id,
          new Date(),
          revisionWriteOf(request),
        ),
      );
    },
  );
};
