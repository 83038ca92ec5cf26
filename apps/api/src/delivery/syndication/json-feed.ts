import { publicFeedPaths } from '../client-site';
import type { SyndicatedSite, SyndicationItem } from './syndication-item';

/** A JSON Feed 1.1 document (https://www.jsonfeed.org/version/1.1/). */
export interface JsonFeed {
  version: 'https://jsonfeed.org/version/1.1';
  title: string;
  home_page_url: string;
  feed_url: string;
  description: string;
  language: string;
  items: JsonFeedItem[];
}

export interface JsonFeedItem {
  id: string;
  url: string;
  external_url?: string;
  title: string;
  content_html: string;
  summary: string;
  image?: string;
  date_published: string;
  date_modified: string;
  tags: string[];
  authors?: Array<{ name: string; url?: string }>;
}

/**
 * The feed as JSON Feed 1.1: `id` is the article id (as the RSS guid), `summary` the excerpt, `content_html`
 * the sanitised body; an imported article names its publisher as author and the original as external_url.
 * `feed_url` is the feed's public address on the site's domain (never the API's, whose URL carries a key).
 */
export function renderJsonFeed(site: SyndicatedSite, items: readonly SyndicationItem[]): JsonFeed {
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: site.name,
    home_page_url: site.homeUrl,
    feed_url: `${site.publicBaseUrl}/${publicFeedPaths.jsonFeed}`,
    description: `Latest articles from ${site.name}`,
    language: site.language,
    items: items.map(jsonFeedItem),
  };
}

function jsonFeedItem(item: SyndicationItem): JsonFeedItem {
  return {
    id: item.guid,
    url: item.url,
    ...(item.source?.url ? { external_url: item.source.url } : {}),
    title: item.title,
    content_html: item.body,
    summary: item.excerpt,
    ...(item.image ? { image: item.image } : {}),
    date_published: item.publishedAt.toISOString(),
    date_modified: item.updatedAt.toISOString(),
    tags: item.categories,
    // The bylines; without them, an imported article's publisher.
    ...(item.authors.length > 0
      ? { authors: item.authors.map((a) => ({ name: a.name, ...(a.url ? { url: a.url } : {}) })) }
      : item.source
        ? { authors: [{ name: item.source.name, ...(item.source.url ? { url: item.source.url } : {}) }] }
        : {}),
  };
}
