import {
  articleUrlOf,
  type ImageMeta,
  type PublishedArticle,
  publicBaseOf,
  type Site,
} from '@newsroom/domain';
import { escapeXml } from './xml';

/** A child site as its feeds and sitemaps describe it. Only sites with an article URL template have feeds. */
export interface SyndicatedSite {
  name: string;
  /** ISO 639 code, e.g. `en`, `pt-BR`. */
  language: string;
  /** The site's home page: the origin of its article URLs, with a trailing slash. */
  homeUrl: string;
  /**
   * Where the site serves its feeds and sitemaps from its own domain (no trailing slash): the RSS self link
   * and the sitemap index's <loc>s, never the API's host (whose URLs carry a key).
   */
  publicBaseUrl: string;
  articleUrl(slug: string): string;
}

/** One article as the feeds carry it. */
export interface SyndicationItem {
  /** Stable across edits and slug changes: the article's id. */
  guid: string;
  url: string;
  title: string;
  /** Plain text: the standfirst, else the stored excerpt (feed summary or first paragraph, see excerptFromHtml). */
  excerpt: string;
  /** Sanitised HTML (bodies are sanitised on write, see docs/articles.md), its corrections appended. */
  body: string;
  /** The bylines, in print order. */
  authors: { name: string; url: string | null }[];
  publishedAt: Date;
  updatedAt: Date;
  /** The category, then the tags (duplicates dropped, case-insensitively). */
  categories: string[];
  image: string | null;
  /** What is known about `image` (credit, caption, size), or null. */
  imageMeta: ImageMeta | null;
  /** Imported articles: the publisher and the original article. */
  source: { name: string; url: string | null } | null;
}

export function syndicatedSite(site: Site & { articleUrlTemplate: string }): SyndicatedSite {
  const template = site.articleUrlTemplate;
  const articleUrl = (slug: string) => articleUrlOf(template, site, slug);
  return {
    name: site.name,
    language: site.language,
    homeUrl: `${new URL(articleUrl('x')).origin}/`,
    publicBaseUrl: publicBaseOf(site) ?? new URL(articleUrl('x')).origin,
    articleUrl,
  };
}

export function syndicationItem(site: SyndicatedSite, article: PublishedArticle): SyndicationItem {
  return {
    guid: article.id,
    url: site.articleUrl(article.slug),
    title: article.title,
    excerpt: article.standfirst ?? article.excerpt,
    body: article.body + correctionsHtml(article.corrections),
    authors: article.bylines,
    publishedAt: article.publishedAt,
    updatedAt: article.updatedAt,
    categories: categoriesOf(article),
    image: article.image ?? article.thumbnail,
    imageMeta: article.image ? article.imageMeta : article.thumbnailMeta,
    source: article.isAggregated && article.source ? { name: article.source, url: article.sourceUrl } : null,
  };
}

function categoriesOf(article: PublishedArticle): string[] {
  const seen = new Set<string>();
  const categories: string[] = [];
  for (const name of [article.category, ...article.tags]) {
    const key = name?.trim().toLowerCase();
    if (!name || !key || seen.has(key)) continue;
    seen.add(key);
    categories.push(name.trim());
  }
  return categories;
}

/** Corrections as feed readers show them: after the body, dated, the text escaped (it is plain text). */
function correctionsHtml(corrections: PublishedArticle['corrections']): string {
  return corrections
    .map(
      (c) =>
        `<p class="correction"><strong>Correction (${c.at.toISOString().slice(0, 10)}):</strong> ${escapeXml(c.text)}</p>`,
    )
    .join('');
}
