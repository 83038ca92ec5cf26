import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type ArticleAction,
  changeArticleStatus,
  listArticleSummaries,
  reviewDecisions,
} from '@newsroom/domain';
import { withEtag } from '../../articles/article-version';
import { revisionWriteOf } from '../../articles/revision-write';
import {
  ArticleIdParamsSchema,
  ArticleSummarySchema,
  PendingQuerySchema,
  type ReviewDecisionBody,
  ReviewDecisionBodySchema,
  VersionedArticleResponseSchema,
} from '../../schemas/article.schema';
import { errorResponses } from '../../schemas/error.schema';
import { paginated, paginationMeta } from '../../schemas/pagination.schema';

const tags = ['articles'];
const security = [{ bearerAuth: [] }];

const actions: Record<ArticleAction, string> = {
  publish: 'Publish a draft (sets publishedAt)',
  unpublish: 'Take a published article back to draft (clears publishedAt)',
  approve: 'Approve a pending imported article: it is published',
  reject: 'Reject a pending imported article: it stays out of every listing, and its guid blocks re-import',
  'back-to-pending':
    'Undo a review decision: a rejected article, or one published by approval, goes back to the queue (clears publishedAt and the reason)',
};

/** Approve and reject take an optional reason the publisher sees; the other transitions take no body. */
const decisionBody = { body: ReviewDecisionBodySchema };

/** Transitions of the review queue: their revisions say source 'review'. */
const reviewActions = new Set<ArticleAction>([...reviewDecisions, 'back-to-pending']);

const isDecision = (action: ArticleAction) => (reviewDecisions as readonly ArticleAction[]).includes(action);

/** The article lifecycle over HTTP: the review queue and one PUT per transition. Prefix /article. */
export const articleStatusRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/pending',
    {
      schema: {
        tags,
        security,
        summary: "Imported articles awaiting review, oldest first, optionally one publisher's",
        querystring: PendingQuerySchema,
        response: { 200: paginated(ArticleSummarySchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit, publisherId } = request.query;
      const filter = { status: 'pending' as const, publisherId };
      const result = await listArticleSummaries(app.db, filter, { page, limit }, 'oldest');
      return { data: result.items, meta: { pagination: paginationMeta({ page, limit }, result.total) } };
    },
  );

  for (const [action, summary] of Object.entries(actions) as [ArticleAction, string][]) {
    app.put(
      `/${action}/:id`,
      {
        config: { optionalBody: isDecision(action) },
        schema: {
          tags,
          security,
          summary,
          params: ArticleIdParamsSchema,
          ...(isDecision(action) && decisionBody),
          response: { 200: VersionedArticleResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const reason = (request.body as ReviewDecisionBody | undefined)?.reason ?? null;
        const write = revisionWriteOf(request, reviewActions.has(action) ? 'review' : 'editor');
        return withEtag(
          reply,
          await changeArticleStatus(app.db, request.params.id, action, new Date(), reason, write),
        );
      },
    );
  }
};
