import type { NewsSitemapEntry, SitemapEntry } from '@newsroom/domain';
import type { SyndicatedSite } from './syndication-item';
import { element, escapeXml } from './xml';

/** The sitemap protocol's limit of URLs per file (https://www.sitemaps.org/protocol.html). */
export const sitemapPageSize = 50_000;
/** Google News sitemaps: articles of the last two days, at most 1,000 per file. */
export const newsSitemapWindowMs = 2 * 24 * 60 * 60 * 1000;
export const newsSitemapMaxEntries = 1_000;

const sitemapNs = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const newsNs = 'http://www.google.com/schemas/sitemap-news/0.9';
const prolog = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** A sitemap index naming each page of the plain sitemap by its absolute URL. */
export function renderSitemapIndex(pageUrls: readonly string[]): string {
  const entries = pageUrls.map((url) => `<sitemap>${element('loc', url)}</sitemap>\n`);
  return `${prolog}<sitemapindex xmlns="${sitemapNs}">\n${entries.join('')}</sitemapindex>\n`;
}

/** One page of the plain sitemap: each article's public URL and last change. */
export function renderUrlSet(site: SyndicatedSite, entries: readonly SitemapEntry[]): string {
  const urls = entries.map(
    (entry) =>
      `<url>${element('loc', site.articleUrl(entry.slug))}${element('lastmod', entry.updatedAt.toISOString())}</url>\n`,
  );
  return `${prolog}<urlset xmlns="${sitemapNs}">\n${urls.join('')}</urlset>\n`;
}

/** A Google News sitemap (https://developers.google.com/search/docs/crawling-indexing/sitemaps/news-sitemap). */
export function renderNewsSitemap(site: SyndicatedSite, entries: readonly NewsSitemapEntry[]): string {
  const publication = `<news:publication>${element('news:name', site.name)}${element(
    'news:language',
    newsLanguageOf(site.language),
  )}</news:publication>`;
  const urls = entries.map(
    (entry) =>
      `<url>${element('loc', site.articleUrl(entry.slug))}<news:news>${publication}` +
      `${element('news:publication_date', entry.publishedAt.toISOString())}${element('news:title', entry.title)}` +
      '</news:news></url>\n',
  );
  return `${prolog}<urlset xmlns="${sitemapNs}" xmlns:news="${escapeXml(newsNs)}">\n${urls.join('')}</urlset>\n`;
}

/**
 * Google News takes an ISO 639 code alone, except zh-cn and zh-tw: `pt-BR` -> `pt`, `zh-TW` -> `zh-tw`.
 */
export function newsLanguageOf(language: string): string {
  const lower = language.toLowerCase();
  if (lower === 'zh-cn' || lower === 'zh-tw') return lower;
  if (lower.startsWith('zh-hant')) return 'zh-tw';
  if (lower.startsWith('zh-hans')) return 'zh-cn';
  return lower.split('-')[0] as string;
}
