import {
  countPublishedOnSite,
  type DbOrTx,
  findNewsSitemapEntries,
  findPlainArticlesPage,
  findSiteById,
  findSitemapEntries,
  listSurrogateKeys,
  NotFoundError,
} from '@newsroom/domain';
import { HttpError } from '../../http-error';
import type { ClientAnswer } from '../client-answer';
import { publicFeedPaths } from '../client-site';
import type { ClientReadSources } from '../read-sources';
import { answerOf, bytesOf } from '../response-bytes';
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
import {
  type SyndicatedSite,
  type SyndicationItem,
  syndicatedSite,
  syndicationItem,
} from './syndication-item';

// The feeds and sitemaps of one site, read like the JSON reads: (sources, site, params) -> an answer. Every
// output goes through the response cache (kept per site: retired by a change of the site's content or of any
// site row) and answers 304 to a matching If-None-Match when sent.

/** Articles in the RSS and JSON feeds: the latest 50 published. */
export const feedSize = 50;

export const syndicationTypes = {
  rss: 'application/rss+xml; charset=utf-8',
  jsonFeed: 'application/feed+json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
} as const;

const feeds = {
  rss: {
    key: 'rss',
    contentType: syndicationTypes.rss,
    render: (site: SyndicatedSite, items: SyndicationItem[]) => renderRss(site, items, new Date()),
  },
  jsonFeed: {
    key: 'json-feed',
    contentType: syndicationTypes.jsonFeed,
    render: (site: SyndicatedSite, items: SyndicationItem[]) => JSON.stringify(renderJsonFeed(site, items)),
  },
} as const;

/** The site's RSS 2.0 feed or JSON Feed 1.1 of its latest `feedSize` articles. */
export async function readFeed(
  sources: ClientReadSources,
  siteId: string,
  format: keyof typeof feeds,
): Promise<ClientAnswer> {
  const feed = feeds[format];
  const answer = await cached(sources, siteId, `${feed.key}|${siteId}`, feed.contentType, async (db) => {
    const site = await loadSyndicatedSite(db, siteId);
    const listing = { siteId, aggregatedOnly: false, tag: null, category: null, section: null };
    const articles = await findPlainArticlesPage(db, listing, {
      from: null,
      skip: 0,
      limit: feedSize,
    });
    return feed.render(
      site,
      articles.map((article) => syndicationItem(site, article)),
    );
  });
  return answer as ClientAnswer;
}

/** The Google News sitemap: the site's articles of the last two days, at most 1,000. */
export async function readNewsSitemap(sources: ClientReadSources, siteId: string): Promise<ClientAnswer> {
  // The window moves with time, not only with content: the cached answer is kept for one minute at most.
  const minute = Math.floor(Date.now() / 60_000);
  const key = `news-sitemap|${siteId}|${minute}`;
  const answer = await cached(sources, siteId, key, syndicationTypes.xml, async (db) => {
    const site = await loadSyndicatedSite(db, siteId);
    const since = new Date(minute * 60_000 - newsSitemapWindowMs);
    const entries = await findNewsSitemapEntries(db, siteId, since, newsSitemapMaxEntries);
    return renderNewsSitemap(site, entries);
  });
  return answer as ClientAnswer;
}

/**
 * Without `page`, the sitemap index: one absolute URL per 50,000 articles, `<publicBaseUrl>/sitemap.xml?page=n`
 * on the site's own domain (the child site proxies or rewrites it to this route): never the API's host, nor
 * a key. With `page`, that page's URL set; a page past the end is 404 SITEMAP_PAGE_NOT_FOUND.
 */
export async function readSitemap(
  sources: ClientReadSources,
  siteId: string,
  page: number | undefined,
): Promise<ClientAnswer> {
  const answer =
    page === undefined
      ? await cached(sources, siteId, `sitemap-index|${siteId}`, syndicationTypes.xml, async (db) => {
          const site = await loadSyndicatedSite(db, siteId);
          const pages = Math.max(1, Math.ceil((await countPublishedOnSite(db, siteId)) / sitemapPageSize));
          const base = `${site.publicBaseUrl}/${publicFeedPaths.sitemap}`;
          return renderSitemapIndex(Array.from({ length: pages }, (_, index) => `${base}?page=${index + 1}`));
        })
      : await cached(sources, siteId, `sitemap|${siteId}|${page}`, syndicationTypes.xml, async (db) => {
          const site = await loadSyndicatedSite(db, siteId);
          const entries = await findSitemapEntries(db, siteId, (page - 1) * sitemapPageSize, sitemapPageSize);
          if (entries.length === 0 && page > 1) return null;
          return renderUrlSet(site, entries);
        });
  if (!answer) throw new HttpError(404, 'SITEMAP_PAGE_NOT_FOUND', `The sitemap has no page ${page}`);
  return answer;
}

/**
 * The site of a syndication read. Feeds and sitemaps are per site (their URLs come from the site's article URL
 * template): a site key reads its own site; the network key must name one with `?site=`.
 */
export function syndicationSiteId(siteId: string | null): string {
  if (siteId === null) {
    throw new HttpError(400, 'SITE_REQUIRED', 'Feeds and sitemaps are per site: name one with ?site=<slug>');
  }
  return siteId;
}

async function loadSyndicatedSite(db: DbOrTx, siteId: string): Promise<SyndicatedSite> {
  const site = await findSiteById(db, siteId);
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

function cached(
  sources: ClientReadSources,
  siteId: string,
  key: string,
  contentType: string,
  render: (db: DbOrTx) => Promise<string | null>,
): Promise<ClientAnswer | null> {
  return sources.caches.responses.get(siteId, `syndication|${key}`, async () => {
    const body = await sources.content.read(render);
    if (body === null) return null;
    return answerOf(bytesOf(body), sources.freshness.cached, listSurrogateKeys(siteId), contentType);
  });
}
