import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { digestApiKey, NotFoundError } from '@newsroom/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ArticleView } from '../../delivery/article-view';
import type { ClientAnswer } from '../../delivery/client-answer';
import { afterOf, articleFieldsOf, listingOf } from '../../delivery/client-listing-query';
import { heldArticle, readAll, readArticle, readTaxonomy } from '../../delivery/client-reads';
import { knownSiteInScope, presentedKey, siteIdInScope, siteInScope } from '../../delivery/client-scope';
import { sendClientRead } from '../../delivery/http-caching';
import { heldListingPage, readListingPage } from '../../delivery/listing-page-read';
import { limitedBy } from '../../rate-limits/rate-limits.plugin';
import {
  ClientAllQuerySchema,
  ClientArticlePageSchema,
  ClientArticleQuerySchema,
  ClientListedArticleSchema,
  type ClientListingQuery,
  ClientListingQuerySchema,
  ClientScopeQuerySchema,
  ClientSlugParamsSchema,
  NotModifiedSchema,
} from '../../schemas/client-article.schema';
import { ClientTaxonomySchema } from '../../schemas/client-taxonomy.schema';
import { errorResponses } from '../../schemas/error.schema';

const security: Record<string, string[]>[] = [{ apiKeyHeader: [] }, { apiKeyQuery: [] }];
const tags = ['client'];

/** Rate limits count per key: the digest of the key the guard accepted (never the key itself, in Redis). */
export const perKey = (request: FastifyRequest) =>
  digestApiKey(presentedKey(request) ?? '').toString('base64url');

function sendArticle(
  request: FastifyRequest,
  reply: FastifyReply,
  response: ClientAnswer | null,
  slug: string,
): void {
  if (!response) throw new NotFoundError('article', slug);
  sendClientRead(request, reply, response);
}

/** The read-only routes child sites use. The key guard (one hook on this subtree) has set request.clientScope. */
export const clientRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { rateLimits } = app.config;
  // One budget per key over these routes (all but /all), off by default; /all, the costliest read, has its own.
  const config = limitedBy(rateLimits.client, 'client', perKey);
  const listingSchema = {
    tags,
    security,
    querystring: ClientListingQuerySchema,
    response: {
      200: ClientArticlePageSchema,
      304: NotModifiedSchema,
      ...errorResponses(400, 401, 403, 429),
    },
  };

  // The two listings differ only in which articles they hold: all, or those imported from publisher feeds.
  const listings = [
    ['/posts', false, 'Published articles, newest first, paginated'],
    ['/partner-articles', true, 'Published articles imported from publisher feeds, newest first, paginated'],
  ] as const;
  for (const [path, aggregatedOnly, summary] of listings) {
    const paramsOf = (request: FastifyRequest, query: ClientListingQuery, view: ArticleView) => ({
      // In this order: a query with several faults is refused for the same one as before.
      listing: listingOf(query, { siteId: view.siteId, aggregatedOnly }),
      fields: articleFieldsOf(query, view.siteId),
      page: query.page,
      limit: query.limit,
      after: afterOf(request),
    });
    app.get(path, { config, schema: { ...listingSchema, summary } }, (request, reply) => {
      // A cached page (the common case) is answered without a promise; anything else is read.
      const known = knownSiteInScope(request, request.query.site);
      if (known !== undefined) {
        const held = heldListingPage(app.clientContent.reads, paramsOf(request, request.query, known));
        if (held !== undefined) {
          sendClientRead(request, reply, held);
          return;
        }
      }
      return (async () => {
        const view = await siteInScope(request, request.query.site);
        const response = await readListingPage(
          app.clientContent.reads,
          view,
          paramsOf(request, request.query, view),
        );
        return sendClientRead(request, reply, response);
      })();
    });
  }

  app.get(
    '/article/:slug',
    {
      config,
      schema: {
        summary: 'One published article by slug',
        tags,
        security,
        params: ClientSlugParamsSchema,
        querystring: ClientArticleQuerySchema,
        response: {
          // The whole article, or with fields= only the fields named (as the listings' items).
          200: ClientListedArticleSchema,
          304: NotModifiedSchema,
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    (request, reply) => {
      const { slug } = request.params;
      // A cached article (the common case) is answered without a promise; anything else is read.
      const view = knownSiteInScope(request, request.query.site);
      if (view !== undefined) {
        const params = { slug, fields: articleFieldsOf(request.query, view.siteId) };
        const held = heldArticle(app.clientContent.reads, view, params);
        if (held !== undefined) {
          sendArticle(request, reply, held, slug);
          return;
        }
      }
      return (async () => {
        const view = await siteInScope(request, request.query.site);
        const fields = articleFieldsOf(request.query, view.siteId);
        sendArticle(request, reply, await readArticle(app.clientContent.reads, view, { slug, fields }), slug);
        return reply;
      })();
    },
  );

  app.get(
    '/all',
    {
      config: limitedBy(rateLimits.clientAll, 'client-all', perKey),
      schema: {
        summary: 'Every published article, newest first, unpaginated (streamed)',
        tags,
        security,
        querystring: ClientAllQuerySchema,
        response: {
          200: Type.Union([ClientArticlePageSchema, Type.Array(ClientListedArticleSchema)], {
            description:
              '`{ data, meta }` (one page holding every article); with `format=array` a bare array',
          }),
          304: NotModifiedSchema,
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const view = await siteInScope(request, request.query.site);
      const listing = listingOf(request.query, { siteId: view.siteId, aggregatedOnly: false });
      const { format = 'wrapped' } = request.query;
      const fields = articleFieldsOf(request.query, view.siteId);
      const all = readAll(app.clientContent.reads, view, { listing, format, fields });
      return sendClientRead(request, reply, all);
    },
  );

  const taxonomies = [
    ['tags', 'Tags of the published articles in scope, with their slugs and article counts'],
    ['categories', 'Categories of the published articles in scope, with article counts'],
    ['sections', 'Sections of the published articles in scope, with article counts'],
  ] as const;
  for (const [taxonomy, summary] of taxonomies) {
    app.get(
      `/${taxonomy}`,
      {
        config,
        schema: {
          summary,
          tags,
          security,
          querystring: ClientScopeQuerySchema,
          response: {
            200: ClientTaxonomySchema,
            304: NotModifiedSchema,
            ...errorResponses(400, 401, 403, 429),
          },
        },
      },
      async (request, reply) => {
        const siteId = await siteIdInScope(request, request.query.site);
        const response = await readTaxonomy(app.clientContent.reads, siteId, taxonomy);
        return sendClientRead(request, reply, response);
      },
    );
  }
};
