// The names CDN caches hold client answers under (Fastly Surrogate-Key, Cloudflare Cache-Tag, Varnish xkey),
// and the one rule of which names a change purges. The API tags answers with them when it builds a cached
// body; the worker's purge relay purges them (docs/cdn.md).
//
//   site:<siteId>     every answer of the site (its site document, articles, lists, feeds, sitemaps)
//   list:<siteId>     every answer made of a set of the site's articles: listing pages (filtered or not),
//                     /all, taxonomies, feeds, sitemaps
//   article:<id>      the answers of one article (/article/:slug, whatever the slug or fields)
//
// Listing pages do not name each article they hold: any change to an article of a site purges the site's
// lists (a page's membership and order move with it), so per-article names would add header bytes (a page of
// 100 articles: ~4 KB in each of the three headers, past Varnish's 8 KB per-header default) and no precision.

export const surrogateKey = {
  site: (siteId: string) => `site:${siteId}`,
  list: (siteId: string) => `list:${siteId}`,
  article: (articleId: string) => `article:${articleId}`,
};

/** Surrogate keys as the three header syntaxes want them, written once when the answer is built. */
export interface SurrogateKeys {
  /** Space-separated: Surrogate-Key (Fastly) and xkey (Varnish). */
  spaced: string;
  /** Comma-separated: Cache-Tag (Cloudflare). */
  commas: string;
}

export function surrogateKeysOf(keys: readonly string[]): SurrogateKeys {
  return { spaced: keys.join(' '), commas: keys.join(',') };
}

/** The keys of an answer made of a set of the site's articles; null outside a site (network answers are private). */
export function listSurrogateKeys(siteId: string | null): SurrogateKeys | null {
  return siteId === null ? null : surrogateKeysOf([surrogateKey.site(siteId), surrogateKey.list(siteId)]);
}

/** The keys of one article's answer in a site. */
export function articleSurrogateKeys(siteId: string | null, articleId: string): SurrogateKeys | null {
  return siteId === null
    ? null
    : surrogateKeysOf([surrogateKey.site(siteId), surrogateKey.article(articleId)]);
}

/** The keys of the site's own document (GET /client/site). */
export function siteSurrogateKeys(siteId: string): SurrogateKeys {
  return surrogateKeysOf([surrogateKey.site(siteId)]);
}

/** What one outbox row changes, as its article-change columns say (article-change.ts). */
export interface PurgedChange {
  articleId: string;
  visibleBefore: boolean;
  visibleAfter: boolean;
  sitesBefore: readonly string[];
  sitesAfter: readonly string[];
}

/**
 * The keys a change of an article purges: its own answers, and the lists of every site it was or is visible
 * on (its arrival, departure or new content moves their pages, feeds and counts). Nothing of another site.
 */
export function surrogateKeysToPurge(change: PurgedChange): string[] {
  const sites = new Set([
    ...(change.visibleBefore ? change.sitesBefore : []),
    ...(change.visibleAfter ? change.sitesAfter : []),
  ]);
  return [surrogateKey.article(change.articleId), ...[...sites].sort().map(surrogateKey.list)];
}
