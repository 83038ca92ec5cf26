import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type ArticleAction, changeArticleStatus, listArticleSummaries } from '@newsroom/domain';
import { Type } from 'typebox';
import { ArticleIdParamsSchema, ArticleSchema, ArticleSummarySchema } from '../../schemas/article.schema';
import { errorResponses } from '../../schemas/error.schema';
import { PageQuerySchema, paginated, paginationMeta } from '../../schemas/pagination.schema';

const PendingQuerySchema = Type.Object(PageQuerySchema.properties, { additionalProperties: false });
const tags = ['articles'];
const security = [{ bearerAuth: [] }];

const actions: Record<ArticleAction, string> = {
  publish: 'Publish a draft (sets publishedAt)',
  unpublish: 'Take a published article back to draft (clears publishedAt)',
  approve: 'Approve a pending imported article: it is published',
  reject: 'Reject a pending imported article: it stays out of every listing, and its guid blocks re-import',
};

/** The article lifecycle over HTTP: the review queue and one PUT per transition. Prefix /article. */
export const articleStatusRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/pending',
    {
      schema: {
        tags,
        security,
        summary: 'Imported articles awaiting review, oldest first',
        querystring: PendingQuerySchema,
        response: { 200: paginated(ArticleSummarySchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const result = await listArticleSummaries(app.db, { status: 'pending' }, { page, limit }, 'oldest');
      return { data: result.items, meta: { pagination: paginationMeta({ page, limit }, result.total) } };
    },
  );

  for (const [action, summary] of Object.entries(actions) as [ArticleAction, string][]) {
    app.put(
      `/${action}/:id`,
      {
        schema: {
          tags,
          security,
          summary,
          params: ArticleIdParamsSchema,
          response: { 200: ArticleSchema, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => changeArticleStatus(app.db, request.params.id, action),
    );
  }
};
