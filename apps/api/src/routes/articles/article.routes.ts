import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createArticle,
  deleteArticle,
  editArticleAnnouncingCorrection,
  getArticle,
  setArticleHostSites,
} from '@newsroom/domain';
import { Type } from 'typebox';
import { bodyImagePolicy, withSanitisedBody } from '../../articles/article-body-sanitiser';
import { listArticlesWithCounts } from '../../articles/article-list';
import { versionsOfIfMatch, withEtag } from '../../articles/article-version';
import { revisionWriteOf } from '../../articles/revision-write';
import {
  ArticleIdParamsSchema,
  ArticleListQuerySchema,
  ArticleListResponseSchema,
  CreateArticleBodySchema,
  EditArticleBodySchema,
  EditArticleQuerySchema,
  HostSitesBodySchema,
  IfMatchHeadersSchema,
  VersionedArticleResponseSchema,
} from '../../schemas/article.schema';
import { errorResponses } from '../../schemas/error.schema';

const tags = ['articles'];
const security = [{ bearerAuth: [] }];

/** Administrators' article editing: list, read, create, edit, host sites, delete. Prefix /article. */
export const articleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const bodyImages = bodyImagePolicy(app.config.storage);
  app.get(
    '',
    {
      schema: {
        tags,
        security,
        summary:
          'List articles, newest first, filtered by status, site, origin, publisher, tag and title text, with counts per status',
        querystring: ArticleListQuerySchema,
        response: { 200: ArticleListResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => listArticlesWithCounts(app.db, request.query, request.actor),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One article, with its body',
        params: ArticleIdParamsSchema,
        response: { 200: VersionedArticleResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => withEtag(reply, await getArticle(app.db, request.params.id)),
  );

  app.post(
    '',
    {
      schema: {
        tags,
        security,
        summary: 'Create a draft; the slug is generated from the title',
        body: CreateArticleBodySchema,
        response: { 201: VersionedArticleResponseSchema, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request, reply) => {
      const { hostSites, ...fields } = withSanitisedBody(request.body, bodyImages);
      const content = {
        body: '',
        tags: [],
        category: null,
        section: null,
        thumbnail: null,
        image: null,
        ...fields,
      };
      const write = revisionWriteOf(request);
      const article = await createArticle(app.db, content, hostSites, write, request.user.id);
      return reply.status(201).send(withEtag(reply, article));
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Edit any of the fields (status never changes; slug only when given); with If-Match, only if the article is still at that version; with `correction`, a published article also gets a correction note',
        params: ArticleIdParamsSchema,
        headers: IfMatchHeadersSchema,
        querystring: EditArticleQuerySchema,
        body: EditArticleBodySchema,
        response: {
          200: VersionedArticleResponseSchema,
          ...errorResponses(400, 401, 403, 404, 409, 412, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const versions = versionsOfIfMatch(request.headers['if-match']);
      const { correction, ...fields } = withSanitisedBody(request.body, bodyImages);
      const by = { userId: request.user.id, name: request.user.email };
      const patch = correction ? { ...fields, correction: { text: correction.text, by } } : fields;
      const source = request.query.autosave ? 'autosave' : 'editor';
      const write = revisionWriteOf(request, source, request.query.reason ?? null);
      return withEtag(
        reply,
        await editArticleAnnouncingCorrection(
          app.db,
          request.params.id,
          patch,
          versions,
          write,
          app.config.imgproxy,
        ),
      );
    },
  );

  app.post(
    '/host-site/:id',
    {
      schema: {
        tags,
        security,
        summary: "Set the article's host sites to exactly the given list",
        params: ArticleIdParamsSchema,
        body: HostSitesBodySchema,
        response: { 200: VersionedArticleResponseSchema, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await setArticleHostSites(
          app.db,
          request.params.id,
          request.body.hostSites,
          revisionWriteOf(request),
        ),
      ),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete an article for good (any status), with its revisions',
        params: ArticleIdParamsSchema,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await deleteArticle(app.db, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
