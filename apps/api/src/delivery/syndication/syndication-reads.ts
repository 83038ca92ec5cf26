import {
  countPublishedOnSite,
  findNewsSitemapEntries,
  findPublishedArticlesPage,
  findSiteById,
  findSitemapEntries,
  NotFoundError,
} from '@newsroom/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../http-error';
import { siteIdInScope } from '../client-scope';
import { publicFeedPaths } from '../client-site';
import { sendCacheable } from '../http-caching';
import { type CacheableResponse, cacheable } from '../response-bytes';
import { renderJsonFeed } from './json-feed';
import { renderRss } from './rss-feed';
import {
  newsSitemapMaxEntries,
  newsSitemapWindowMs,
  renderNewsSitemap,
  renderSitemapIndex,
  renderUrlSet,
  sitemapPageSize,
} from './sitemaps';
import { type SyndicatedSite, syndicatedSite, syndicationItem } from './syndication-item';

/** Articles in the RSS and JSON feeds: the latest 50 published. */
export const feedSize = 50;

export const syndicationTypes = {
  rss: 'application/rss+xml; charset=utf-8',
  jsonFeed: 'application/feed+json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
} as const;

// Every output goes through the response cache (kept per site: retired by a change of the site's content or
// of any site row) and answers 304 to a matching If-None-Match, like the JSON reads.

export async function sendRssFeed(
  request: FastifyRequest,
  reply: FastifyReply,
  siteSlug: string | undefined,
) {
  const siteId = await syndicationSiteId(request, siteSlug);
  const response = await cached(request, siteId, `rss|${siteId}`, async () => {
    const { site, items } = await latestItems(request, siteId);
    return renderRss(site, items, new Date());
  });
  return sendSyndication(request, reply, response, syndicationTypes.rss);
}

export async function sendJsonFeed(
  request: FastifyRequest,
  reply: FastifyReply,
  siteSlug: string | undefined,
) {
  const siteId = await syndicationSiteId(request, siteSlug);
  const response = await cached(request, siteId, `json-feed|${siteId}`, async () => {
    const { site, items } = await latestItems(request, siteId);
    return JSON.stringify(renderJsonFeed(site, items));
  });
  return sendSyndication(request, reply, response, syndicationTypes.jsonFeed);
}

export async function sendNewsSitemap(
  request: FastifyRequest,
  reply: FastifyReply,
  siteSlug: string | undefined,
) {
  const siteId = await syndicationSiteId(request, siteSlug);
  // The window moves with time, not only with content: the cached answer is kept for one minute at most.
  const minute = Math.floor(Date.now() / 60_000);
  const response = await cached(request, siteId, `news-sitemap|${siteId}|${minute}`, async () => {
    const site = await loadSyndicatedSite(request, siteId);
    const since = new Date(minute * 60_000 - newsSitemapWindowMs);
    const entries = await findNewsSitemapEntries(request.server.db, siteId, since, newsSitemapMaxEntries);
    return renderNewsSitemap(site, entries);
  });
  return sendSyndication(request, reply, response, syndicationTypes.xml);
}

/**
 * Without `page`, the sitemap index: one absolute URL per 50,000 articles, `<publicBaseUrl>/sitemap.xml?page=n`
 * on the site's own domain (the child site proxies or rewrites it to this route): never the API's host, nor
 * a key. With `page`, that page's URL set; a page past the end is 404 SITEMAP_PAGE_NOT_FOUND.
 */
export async function sendSitemap(
  request: FastifyRequest,
  reply: FastifyReply,
  query: { site?: string; page?: number },
) {
  const siteId = await syndicationSiteId(request, query.site);
  const { db } = request.server;
  if (query.page === undefined) {
    const response = await cached(request, siteId, `sitemap-index|${siteId}`, async () => {
      const site = await loadSyndicatedSite(request, siteId);
      const pages = Math.max(1, Math.ceil((await countPublishedOnSite(db, siteId)) / sitemapPageSize));
      const base = `${site.publicBaseUrl}/${publicFeedPaths.sitemap}`;
      return renderSitemapIndex(Array.from({ length: pages }, (_, index) => `${base}?page=${index + 1}`));
    });
    return sendSyndication(request, reply, response, syndicationTypes.xml);
  }
  const page = query.page;
  const response = await cached(request, siteId, `sitemap|${siteId}|${page}`, async () => {
    const site = await loadSyndicatedSite(request, siteId);
    const entries = await findSitemapEntries(db, siteId, (page - 1) * sitemapPageSize, sitemapPageSize);
    if (entries.length === 0 && page > 1) return null;
    return renderUrlSet(site, entries);
  });
  if (!response) throw new HttpError(404, 'SITEMAP_PAGE_NOT_FOUND', `The sitemap has no page ${page}`);
  return sendSyndication(request, reply, response, syndicationTypes.xml);
}

/**
 * The site a syndication request is about. Feeds and sitemaps are per site (their URLs come from the site's
 * article URL template): a site key reads its own site; the network key must name one with `?site=`.
 */
async function syndicationSiteId(request: FastifyRequest, siteSlug: string | undefined): Promise<string> {
  const siteId = await siteIdInScope(request, siteSlug);
  if (siteId === null) {
    throw new HttpError(400, 'SITE_REQUIRED', 'Feeds and sitemaps are per site: name one with ?site=<slug>');
  }
  return siteId;
}

async function loadSyndicatedSite(request: FastifyRequest, siteId: string): Promise<SyndicatedSite> {
  const site = await findSiteById(request.server.db, siteId);
  if (!site) throw new NotFoundError('site', siteId);
  const { articleUrlTemplate } = site;
  if (articleUrlTemplate === null) {
    throw new HttpError(
      409,
      'ARTICLE_URL_TEMPLATE_MISSING',
      `Site ${site.slug} has no articleUrlTemplate: an administrator sets it (PUT /api/v1/site/:id)`,
    );
  }
  return syndicatedSite({ ...site, articleUrlTemplate });
}

async function latestItems(request: FastifyRequest, siteId: string) {
  const site = await loadSyndicatedSite(request, siteId);
  const listing = { siteId, aggregatedOnly: false, tag: null, category: null, section: null };
  const articles = await findPublishedArticlesPage(request.server.db, listing, {
    from: null,
    skip: 0,
    limit: feedSize,
  });
  return { site, items: articles.map((article) => syndicationItem(site, article)) };
}

async function cached(
  request: FastifyRequest,
  siteId: string,
  key: string,
  render: () => Promise<string | null>,
): Promise<CacheableResponse | null> {
  return request.server.clientContent.reads.caches.responses.get(siteId, `syndication|${key}`, async () => {
    const body = await render();
    return body === null ? null : cacheable(body);
  });
}

function sendSyndication(
  request: FastifyRequest,
  reply: FastifyReply,
  response: CacheableResponse | null,
  contentType: string,
) {
  return sendCacheable(request, reply, response as CacheableResponse, contentType);
}
