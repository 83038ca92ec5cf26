import type { PublishedArticle } from '@newsroom/domain';
import { newsArticleOf, type StructuredDataSite } from './structured-data';

/**
 * Whom an article is written for: one site (a site key, or the network key with ?site=) or the whole network
 * (siteId and siteSlug null). Responses are cached by siteId, so everything here must follow from it.
 */
export interface ArticleView {
  siteId: string | null;
  siteSlug: string | null;
  /** Set when the read asked for structured data (a site-scoped read only). */
  structuredDataSite?: StructuredDataSite | null;
}

export const networkView: ArticleView = { siteId: null, siteSlug: null };

/**
 * The article as the view's serialiser reads it: a site-scoped read gets `url` (its canonical URL on that
 * site, null without a template) instead of the `urls` map of every host site, and `structuredData` when
 * asked for. Runs once per cache fill, never per cached request.
 */
export function articleInView(article: PublishedArticle, view: ArticleView): PublishedArticle {
  if (view.siteSlug === null) return article;
  const url = article.urls[view.siteSlug] ?? null;
  const scoped = { ...article, url, urls: undefined } as unknown as PublishedArticle;
  if (view.structuredDataSite) {
    return { ...scoped, structuredData: newsArticleOf(article, url, view.structuredDataSite) } as never;
  }
  return scoped;
}
