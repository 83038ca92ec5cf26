import { type ImageMeta, toCorrections } from '../article-fields';
import type { ArticleRow } from '../db/tables';
import type { ArticleRenditions } from '../images/imgproxy-renditions';
import { articleUrlsOf, type HostSiteUrlParts } from '../sites/article-urls';
import { labelSlug } from './label-slug';

/** A published article as child sites receive it: public fields only, no workflow or feed internals. */
export interface PublishedArticle {
  id: string;
  title: string;
  slug: string;
  /** Plain text, at most 300 characters (see excerptFromHtml). */
  excerpt: string;
  /** Plain text under the headline; null: none. */
  standfirst: string | null;
  /** The authors in print order (a staff user's id stays internal). */
  bylines: PublishedByline[];
  body: string;
  tags: string[];
  /** The same tags with their slugs (the `tag` filter's values), in the same order. */
  tagObjects: PublishedTag[];
  category: string | null;
  section: string | null;
  thumbnail: string | null;
  thumbnailMeta: ImageMeta | null;
  image: string | null;
  imageMeta: ImageMeta | null;
  /** Signed imgproxy crops of thumbnail and image (withRenditions); null: no image proxy configured. */
  renditions: ArticleRenditions | null;
  hostSites: string[];
  /** Canonical URL on each host site that has an article URL template, by site slug (article-urls.ts). */
  urls: Record<string, string>;
  isAggregated: boolean;
  /** The publisher's display name for imported articles; null for manual ones. */
  source: string | null;
  sourceUrl: string | null;
  /** Imported articles: the feed item's own date (null when it had none, and for manual articles). */
  sourcePublishedAt: Date | null;
  publishedAt: Date;
  updatedAt: Date;
  /** Published corrections, oldest first (who added them stays internal). */
  corrections: PublishedCorrection[];
}

export interface PublishedByline {
  name: string;
  url: string | null;
}

export interface PublishedCorrection {
  text: string;
  at: Date;
}

/** A tag as written on the article, and its slug (labelSlug). */
export interface PublishedTag {
  name: string;
  slug: string;
}

/** An article's place in a listing page and its row version (see findPlainVersionsPage, findSearchVersionsPage). */
export interface PublishedArticleVersion {
  id: string;
  /** Changes with every committed change to the article's client representation. */
  version: string;
  /** Where it sits in the listing order (listings in date order only; not searches). */
  publishedAt?: Date | null;
}

export type PublishedArticleRow = Pick<
  ArticleRow,
  | 'id'
  | 'title'
  | 'slug'
  | 'excerpt'
  | 'body'
  | 'tags'
  | 'category'
  | 'section'
  | 'thumbnail'
  | 'image'
  | 'standfirst'
  | 'bylines'
  | 'thumbnail_meta'
  | 'image_meta'
  | 'corrections'
  | 'is_aggregated'
  | 'source'
  | 'source_url'
  | 'source_published_at'
  | 'published_at'
  | 'updated_at'
> & { host_sites: string[] | null; tag_slugs: string[] | null; host_site_urls: HostSiteUrlParts[] | null };

export function toPublishedArticle(row: PublishedArticleRow): PublishedArticle {
  const aggregated = row.is_aggregated;
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    standfirst: row.standfirst,
    bylines: (row.bylines ?? []).map((b) => ({ name: b.name, url: b.url ?? null })),
    body: row.body,
    tags: row.tags,
    tagObjects: row.tags.map((name, index) => ({ name, slug: row.tag_slugs?.[index] ?? labelSlug(name) })),
    category: row.category,
    section: row.section,
    thumbnail: row.thumbnail,
    thumbnailMeta: row.thumbnail_meta,
    image: row.image,
    imageMeta: row.image_meta,
    renditions: null,
    hostSites: row.host_sites ?? [],
    urls: articleUrlsOf(row.host_site_urls ?? [], row.slug),
    isAggregated: aggregated,
    source: aggregated ? row.source : null,
    sourceUrl: aggregated ? row.source_url : null,
    sourcePublishedAt: aggregated ? row.source_published_at : null,
    // Only published rows reach this mapper, and a published row always has a date (a check constraint).
    publishedAt: row.published_at as Date,
    updatedAt: row.updated_at,
    corrections: toCorrections(row.corrections).map((c) => ({ text: c.text, at: c.at })),
  };
}
