import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  diffArticleRevisions,
  getArticleRevision,
  listArticleRevisions,
  restoreArticleRevision,
} from '@newsroom/domain';
import { articleEtag, versionsOfIfMatch } from '../../articles/article-version';
import { revisionWriteOf } from '../../articles/revision-write';
import { ArticleIdParamsSchema, IfMatchHeadersSchema } from '../../schemas/article.schema';
import {
  ArticleRevisionSchema,
  RestoredArticleResponseSchema,
  RestoreRevisionBodySchema,
  RevisionDiffQuerySchema,
  RevisionDiffSchema,
  RevisionListQuerySchema,
  RevisionParamsSchema,
  RevisionSummarySchema,
} from '../../schemas/article-revision.schema';
import { errorResponses } from '../../schemas/error.schema';
import { paginated, paginationMeta } from '../../schemas/pagination.schema';

const tags = ['articles'];
const security = [{ bearerAuth: [] }];

/** An article's history: its revisions, one in full, a diff of two, a restore. Prefix /article. */
export const articleRevisionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:id/revisions',
    {
      schema: {
        tags,
        security,
        summary:
          'The revisions of an article, newest first: who (actor), from where (source), when, why, and its status then. Every write to the article records one; autosaves of one person within 5 minutes collapse into one. Paged by number (`before`, keyset) or by page',
        params: ArticleIdParamsSchema,
        querystring: RevisionListQuerySchema,
        response: { 200: paginated(RevisionSummarySchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { page, limit, before } = request.query;
      const result = await listArticleRevisions(app.db, request.params.id, { page, limit }, before);
      return { data: result.items, meta: { pagination: paginationMeta({ page, limit }, result.total) } };
    },
  );

  app.get(
    '/:id/revisions/diff',
    {
      schema: {
        tags,
        security,
        summary:
          'What changed between two revisions: field by field, and the body as an HTML-aware text diff',
        params: ArticleIdParamsSchema,
        querystring: RevisionDiffQuerySchema,
        response: { 200: RevisionDiffSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => diffArticleRevisions(app.db, request.params.id, request.query.from, request.query.to),
  );

  app.get(
    '/:id/revisions/:n',
    {
      schema: {
        tags,
        security,
        summary: 'One revision with its whole snapshot (title, body, slug, tags, host sites, status...)',
        params: RevisionParamsSchema,
        response: { 200: ArticleRevisionSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getArticleRevision(app.db, request.params.id, request.params.n),
  );

  app.post(
    '/:id/revisions/:n/restore',
    {
      config: { optionalBody: true },
      schema: {
        tags,
        security,
        summary:
          "Write revision n's content back as a new revision. The status never changes: a published article stays published and readers see the restored text at once (the response says so). With If-Match, only if the article is still at that version",
        params: RevisionParamsSchema,
        headers: IfMatchHeadersSchema,
        body: RestoreRevisionBodySchema,
        response: {
          200: RestoredArticleResponseSchema,
          ...errorResponses(400, 401, 403, 404, 409, 412, 415),
        },
      },
    },
    async (request, reply) => {
      const { id, n } = request.params;
      const write = revisionWriteOf(request, 'restore', request.body?.reason ?? null);
      const versions = versionsOfIfMatch(request.headers['if-match']);
      const restored = await restoreArticleRevision(app.db, id, n, versions, write);
      reply.header('etag', articleEtag(restored.article.version));
      const status = restored.article.status;
      return {
        ...restored,
        statusUnchanged: true as const,
        message:
          status === 'published'
            ? `Revision ${n} restored as revision ${restored.revision}. The article stays published: readers see the restored text now.`
            : `Revision ${n} restored as revision ${restored.revision}. The status stays ${status}.`,
      };
    },
  );
};
