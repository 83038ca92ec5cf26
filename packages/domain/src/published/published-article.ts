import type { ArticleRow } from '../db/tables';

/** A published article as child sites receive it: public fields only, no workflow or feed internals. */
export interface PublishedArticle {
  id: string;
  title: string;
  slug: string;
  body: string;
  tags: string[];
  category: string | null;
  section: string | null;
  thumbnail: string | null;
  image: string | null;
  hostSites: string[];
  isAggregated: boolean;
  /** The publisher's display name for imported articles; null for manual ones. */
  source: string | null;
  sourceUrl: string | null;
  publishedAt: Date;
  updatedAt: Date;
}

/** An article's place in a listing page and its row version (see findPublishedVersionsPage). */
export interface PublishedArticleVersion {
  id: string;
  /** Changes with every committed change to the article's client representation. */
  version: string;
}

export type PublishedArticleRow = Pick<
  ArticleRow,
  | 'id'
  | 'title'
  | 'slug'
  | 'body'
  | 'tags'
  | 'category'
  | 'section'
  | 'thumbnail'
  | 'image'
  | 'is_aggregated'
  | 'source'
  | 'source_url'
  | 'published_at'
  | 'updated_at'
> & { host_sites: string[] | null };

export function toPublishedArticle(row: PublishedArticleRow): PublishedArticle {
  const aggregated = row.is_aggregated;
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    body: row.body,
    tags: row.tags,
    category: row.category,
    section: row.section,
    thumbnail: row.thumbnail,
    image: row.image,
    hostSites: row.host_sites ?? [],
    isAggregated: aggregated,
    source: aggregated ? row.source : null,
    sourceUrl: aggregated ? row.source_url : null,
    // Only published rows reach this mapper, and a published row always has a date (a check constraint).
    publishedAt: row.published_at as Date,
    updatedAt: row.updated_at,
  };
}
