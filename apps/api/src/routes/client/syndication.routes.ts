import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { siteIdInScope } from '../../delivery/client-scope';
import { sendClientRead } from '../../delivery/http-caching';
import {
  readFeed,
  readNewsSitemap,
  readSitemap,
  syndicationSiteId,
} from '../../delivery/syndication/syndication-reads';
import { limitedBy } from '../../rate-limits/rate-limits.plugin';
import { NotModifiedSchema } from '../../schemas/client-article.schema';
import { errorResponses } from '../../schemas/error.schema';
import {
  documentResponse,
  JsonFeedSchema,
  SitemapQuerySchema,
  SyndicationQuerySchema,
} from '../../schemas/syndication.schema';
import { perKey } from './client.routes';
import { syndicationExamples as examples } from './syndication.examples';

const security: Record<string, string[]>[] = [{ apiKeyHeader: [] }, { apiKeyQuery: [] }];
const tags = ['client'];
const errors = errorResponses(400, 401, 403, 409, 429);

/** The one site a feed or sitemap request is about (the network key must name it with ?site=). */
const siteOf = async (request: FastifyRequest & { query: { site?: string } }) =>
  syndicationSiteId(await siteIdInScope(request, request.query.site));

/**
 * Feeds and sitemaps of one child site, for feed readers, aggregators and search engines (docs/client-api.md).
 * Same key guard, scope, caching and rate limit as the JSON reads; the network key must name a site.
 */
export const syndicationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const config = limitedBy(app.config.rateLimits.client, 'client', perKey);
  const { reads } = app.clientContent;
  // The feeds and the news sitemap take the same query and answer the same statuses.
  const perSite = <Ok>(summary: string, ok: Ok) => ({
    config,
    schema: {
      summary,
      tags,
      security,
      querystring: SyndicationQuerySchema,
      response: { 200: ok, 304: NotModifiedSchema, ...errors },
    },
  });

  app.get(
    '/feed.xml',
    perSite(
      "RSS 2.0 feed of the site's latest 50 published articles",
      documentResponse('application/rss+xml', 'RSS 2.0 document', examples.rss),
    ),
    async (request, reply) =>
      sendClientRead(request, reply, await readFeed(reads, await siteOf(request), 'rss')),
  );

  app.get(
    '/feed.json',
    perSite("JSON Feed 1.1 of the site's latest 50 published articles", {
      description: 'JSON Feed 1.1 document',
      content: { 'application/feed+json': { schema: JsonFeedSchema, example: examples.jsonFeed } },
    }),
    async (request, reply) =>
      sendClientRead(request, reply, await readFeed(reads, await siteOf(request), 'jsonFeed')),
  );

  app.get(
    '/sitemap-news.xml',
    perSite(
      'Google News sitemap: articles published in the last two days, at most 1,000',
      documentResponse('application/xml', 'Google News sitemap', examples.newsSitemap),
    ),
    async (request, reply) =>
      sendClientRead(request, reply, await readNewsSitemap(reads, await siteOf(request))),
  );

  app.get(
    '/sitemap.xml',
    {
      config,
      schema: {
        summary: "The site's sitemap index (no page) or one page of 50,000 article URLs (?page=)",
        tags,
        security,
        querystring: SitemapQuerySchema,
        response: {
          200: documentResponse('application/xml', 'sitemap index, or a sitemap URL set', examples.sitemap),
          304: NotModifiedSchema,
          ...errorResponses(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request, reply) =>
      sendClientRead(request, reply, await readSitemap(reads, await siteOf(request), request.query.page)),
  );
};
