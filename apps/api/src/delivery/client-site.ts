import { findSiteById, NotFoundError, publicBaseOf, type Site, siteSurrogateKeys } from '@newsroom/domain';
import type { ClientSite } from '../schemas/client-site.schema';
import type { ClientAnswer } from './client-answer';
import type { ClientReadSources } from './read-sources';
import { answerOf, bytesOf } from './response-bytes';

/**
 * The paths under which a child site serves its feeds and sitemaps from its own domain: the API's own names,
 * so a proxy maps `<publicBaseUrl>/<name>` to `/api/v1/client/<name>` one to one (docs/client-api.md).
 */
export const publicFeedPaths = {
  rss: 'feed.xml',
  jsonFeed: 'feed.json',
  sitemap: 'sitemap.xml',
  newsSitemap: 'sitemap-news.xml',
} as const;

/** A site as GET /client/site describes it to its own keys. */
export function clientSiteOf(site: Site): ClientSite {
  const base = publicBaseOf(site);
  const at = (path: string) => (base === null ? null : `${base}/${path}`);
  return {
    id: site.id,
    slug: site.slug,
    name: site.name,
    domain: site.domain,
    language: site.language,
    articleUrlTemplate: site.articleUrlTemplate,
    publicBaseUrl: base,
    allowedOrigins: site.allowedOrigins,
    feeds: {
      rss: at(publicFeedPaths.rss),
      jsonFeed: at(publicFeedPaths.jsonFeed),
      sitemap: at(publicFeedPaths.sitemap),
      newsSitemap: at(publicFeedPaths.newsSitemap),
    },
  };
}

/** The site a key reads, cached like the other reads and retired by any change of a site row. */
export async function readSite(sources: ClientReadSources, siteId: string): Promise<ClientAnswer> {
  const answer = await sources.caches.responses.get(siteId, `site|${siteId}`, async () => {
    const site = await sources.content.read((db) => findSiteById(db, siteId));
    if (!site) return null;
    return answerOf(
      bytesOf(JSON.stringify(clientSiteOf(site))),
      sources.freshness.cached,
      siteSurrogateKeys(siteId),
    );
  });
  if (!answer) throw new NotFoundError('site', siteId);
  return answer;
}
