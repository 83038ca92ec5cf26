import type { PublishedArticle } from '@newsroom/domain';
import type { NewsArticleStructuredData } from '../schemas/structured-data.schema';

/** What a NewsArticle says about the site that publishes it. */
export interface StructuredDataSite {
  name: string;
  /** BCP 47, as the site stores it (`en`, `pt-BR`). */
  language: string;
}

/** Google shows at most 110 characters of a headline (and warned past it): cut at a word, with `…`. */
const maxHeadline = 110;

/**
 * The schema.org NewsArticle of an article on one site (JSON-LD), from our fields only: headline, dates,
 * pictures, the site as publisher (and author of its own articles; imported ones name their feed publisher),
 * the canonical URL (when the site has a template) and the site's language.
 */
export function newsArticleOf(
  article: PublishedArticle,
  url: string | null,
  site: StructuredDataSite,
): NewsArticleStructuredData {
  const home = url === null ? undefined : `${new URL(url).origin}/`;
  const publisher = { '@type': 'Organization' as const, name: site.name, ...(home && { url: home }) };
  const images = imagesOf(article);
  // Bylines name people; without them, the feed publisher (imported) or the site speaks for the article.
  const author: NewsArticleStructuredData['author'] =
    article.bylines.length > 0
      ? article.bylines.map((b) => ({
          '@type': 'Person' as const,
          name: b.name,
          ...(b.url && { url: b.url }),
        }))
      : article.isAggregated && article.source
        ? [{ '@type': 'Organization' as const, name: article.source }]
        : [publisher];
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: headlineOf(article.title),
    description: article.excerpt,
    datePublished: article.publishedAt.toISOString(),
    dateModified: article.updatedAt.toISOString(),
    ...(url !== null && { url, mainEntityOfPage: url }),
    ...(images.length > 0 && { image: images }),
    inLanguage: site.language,
    publisher,
    author,
    ...(article.section !== null && { articleSection: article.section }),
    ...(article.tags.length > 0 && { keywords: article.tags }),
    ...(article.isAggregated && article.sourceUrl !== null && { isBasedOn: article.sourceUrl }),
    ...(article.corrections.length > 0 && {
      correction: article.corrections.map((c) => ({
        '@type': 'CorrectionComment' as const,
        text: c.text,
        datePublished: c.at.toISOString(),
      })),
    }),
  };
}

/**
 * The pictures: with renditions (an image proxy), the picture's 16:9, 4:3 and 1:1 crops at their largest width,
 * as Google's Article guidance asks; else the image, then the thumbnail, as stored.
 */
function imagesOf(article: PublishedArticle): string[] {
  const crops = article.renditions?.image ?? article.renditions?.thumbnail;
  if (crops) {
    return (['16:9', '4:3', '1:1'] as const).flatMap((ratio) => {
      const widest = crops[ratio].sources.at(-1);
      return widest ? [widest.url] : [];
    });
  }
  return [...new Set([article.image, article.thumbnail].filter((src) => src !== null))];
}

function headlineOf(title: string): string {
  if (title.length <= maxHeadline) return title;
  const cut = title.slice(0, maxHeadline - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > maxHeadline / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
