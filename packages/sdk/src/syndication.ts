import type { paths } from './generated/openapi.js';

/** The site's feeds and sitemaps by name, and their routes. */
export const syndicationPaths = {
  rss: '/api/v1/client/feed.xml',
  jsonFeed: '/api/v1/client/feed.json',
  newsSitemap: '/api/v1/client/sitemap-news.xml',
  sitemap: '/api/v1/client/sitemap.xml',
} as const satisfies Record<string, keyof paths>;

/** `rss` (RSS 2.0), `jsonFeed` (JSON Feed 1.1), `newsSitemap` (Google News sitemap), `sitemap` (index or page). */
export type SyndicationKind = keyof typeof syndicationPaths;

export interface SyndicationOptions {
  /** The network key must name a site; a site key reads its own. */
  site?: string;
  /** `sitemap` only: a page of the sitemap index (from 1); without it, the index. */
  page?: number;
}
