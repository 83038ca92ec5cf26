import type { PublishedArticle } from './published-article';

/**
 * An article as one reader sees it: the whole network's (`urls`, the canonical URL on each host site) or one
 * site's (`url`, its canonical URL there, and no `urls`; see articleInView in apps/api/src/delivery/).
 */
export type ClientArticleView = Omit<PublishedArticle, 'urls'> & {
  urls?: Record<string, string>;
  url?: string | null;
};

/**
 * Where an article's URLs go: `last`, after every other field (the client API: its schema's serialiser writes
 * optional properties after the required ones), or `afterHostSites` (webhook payloads, which have always been
 * the article object as it is built, urls beside hostSites). Every other field is written the same way.
 */
export type UrlPlacement = 'last' | 'afterHostSites';

/**
 * The one writer of a whole article's JSON: what the client API serves (its ClientArticle schema's bytes,
 * `article-writer.test.ts`) and, with `afterHostSites`, what webhook payloads carry as `data`. Fields absent
 * from the view (`url` or `urls`) are left out; Dates are written as ISO 8601. Sparse fieldsets (`fields=`,
 * structured data) are written by the API's schema-compiled serialisers.
 */
export function clientArticleJson(article: ClientArticleView, urls: UrlPlacement = 'last'): string {
  const json: Record<string, unknown> = {
    id: article.id,
    title: article.title,
    slug: article.slug,
    excerpt: article.excerpt,
    standfirst: article.standfirst,
    bylines: article.bylines,
    body: article.body,
    tags: article.tags,
    tagObjects: article.tagObjects,
    category: article.category,
    section: article.section,
    thumbnail: article.thumbnail,
    thumbnailMeta: article.thumbnailMeta,
    image: article.image,
    imageMeta: article.imageMeta,
    renditions: article.renditions,
    hostSites: article.hostSites,
  };
  if (urls === 'afterHostSites') json.urls = article.urls;
  json.isAggregated = article.isAggregated;
  json.source = article.source;
  json.sourceUrl = article.sourceUrl;
  json.sourcePublishedAt = article.sourcePublishedAt;
  json.publishedAt = article.publishedAt;
  json.updatedAt = article.updatedAt;
  json.corrections = article.corrections;
  if (urls === 'last') {
    json.url = article.url;
    json.urls = article.urls;
  }
  return JSON.stringify(json);
}
