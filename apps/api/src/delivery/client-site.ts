import { type DbOrTx, findSiteById, publicBaseOf, type Site } from '@newsroom/domain';
import type { ClientSite } from '../schemas/client-site.schema';

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

/** The site of a scope, or undefined when it was deleted meanwhile. */
export async function readClientSite(db: DbOrTx, siteId: string): Promise<ClientSite | undefined> {
  const site = await findSiteById(db, siteId);
  return site && clientSiteOf(site);
}
