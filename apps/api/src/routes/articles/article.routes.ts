import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createArticle,
  deleteArticle,
  editArticle,
  getArticle,
  listArticleSummaries,
  setArticleHostSites,
} from '@newsroom/domain';
import { Type } from 'typebox';
import {
  ArticleIdParamsSchema,
  ArticleListQuerySchema,
  ArticleSchema,
  ArticleSummarySchema,
  CreateArticleBodySchema,
  EditArticleBodySchema,
  HostSitesBodySchema,
} from '../../schemas/article.schema';
import { errorResponses } from '../../schemas/error.schema';
import { paginated, paginationMeta } from '../../schemas/pagination.schema';

const tags = ['articles'];
const security = [{ bearerAuth: [] }];

/** Administrators' article editing: list, read, create, edit, host sites, delete. Prefix /article. */
export const articleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '',
    {
      schema: {
        tags,
        security,
        summary: 'List articles, newest first, by status and/or title search',
        querystring: ArticleListQuerySchema,
        response: { 200: paginated(ArticleSummarySchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, limit, status, q } = request.query;
      const result = await listArticleSummaries(app.db, { status, titleContains: q }, { page, limit });
      return { data: result.items, meta: { pagination: paginationMeta({ page, limit }, result.total) } };
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One article, with its body',
        params: ArticleIdParamsSchema,
        response: { 200: ArticleSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getArticle(app.db, request.params.id),
  );

  app.post(
    '',
    {
      schema: {
        tags,
        security,
        summary: 'Create a draft; the slug is generated from the title',
        body: CreateArticleBodySchema,
        response: { 201: ArticleSchema, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request, reply) => {
      const { hostSites, ...fields } = request.body;
      const content = {
        body: '',
        tags: [],
        category: null,
        section: null,
        thumbnail: null,
        image: null,
        ...fields,
      };
      return reply.status(201).send(await createArticle(app.db, content, hostSites));
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Edit any of the fields (status never changes; slug only when given)',
        params: ArticleIdParamsSchema,
        body: EditArticleBodySchema,
        response: { 200: ArticleSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => editArticle(app.db, request.params.id, request.body),
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
        response: { 200: ArticleSchema, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => setArticleHostSites(app.db, request.params.id, request.body.hostSites),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete an article for good (any status)',
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
