import {
  type Byline,
  type Correction,
  type ImageMeta,
  lacksAltText,
  toBylines,
  toCorrections,
} from '../article-fields';
import type { ArticleRow, ArticleStatus } from '../db/tables';

/** An article as the rest of the system sees it: camelCase, host sites by slug. */
export interface Article {
  id: string;
  title: string;
  slug: string;
  body: string;
  tags: string[];
  category: string | null;
  section: string | null;
  thumbnail: string | null;
  image: string | null;
  /** Alt text, caption, credit, size and focal point of `thumbnail` and `image` (null: none known). */
  thumbnailMeta: ImageMeta | null;
  imageMeta: ImageMeta | null;
  bylines: Byline[];
  /** Plain text under the headline (the dek); null: none. */
  standfirst: string | null;
  /** Published corrections, oldest first. */
  corrections: Correction[];
  /** A picture without alt text (imported items may lack it): flagged for review. */
  needsAltText: boolean;
  hostSites: string[];
  status: ArticleStatus;
  isAggregated: boolean;
  source: string | null;
  sourceUrl: string | null;
  rssFeedGuid: string | null;
  publisherId: string | null;
  publishedAt: Date | null;
  /** Imported articles: the feed item's own date, kept whatever the status. */
  sourcePublishedAt: Date | null;
  /** When an approve or reject made the current status (null when no review decided it). */
  reviewedAt: Date | null;
  /** The reason given with that decision, for the publisher; null when none was given. */
  reviewReason: string | null;
  /** Not on any child-site route before this time (never set on a published article). */
  embargoUntil: Date | null;
  /** The staff user who created it by hand (null for imports and older articles). */
  createdBy: string | null;
  /** Who submitted it for review, while that matters (a contributor's draft made pending). */
  submittedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * An article with its version: the `xmin` of its row, i.e. the id of the transaction that last wrote it.
 * Every update of the row (edit, transition, host-site change, a site rename or deletion touching it)
 * gives it a new one; equal versions mean the same stored state. The API sends it as the ETag.
 */
export type VersionedArticle = Article & { version: string };

/** The fields an administrator writes by hand. */
export interface ArticleContent {
  title: string;
  body: string;
  tags: string[];
  category: string | null;
  section: string | null;
  thumbnail: string | null;
  image: string | null;
  /** Issue 32's fields are optional here: absent is none (no metadata, no bylines, no standfirst). */
  thumbnailMeta?: Partial<ImageMeta> | null;
  imageMeta?: Partial<ImageMeta> | null;
  bylines?: { name: string; url?: string | null; userId?: string | null }[];
  standfirst?: string | null;
}

/** An article row as the admin read answers it (its columns, host sites and version), as a VersionedArticle. */
export function toVersionedArticle({
  version,
  ...row
}: Omit<ArticleRow, 'excerpt'> & { host_sites: string[] | null; version: string }): VersionedArticle {
  return { ...toArticle(row), version };
}

export function toArticle(row: Omit<ArticleRow, 'excerpt'> & { host_sites: string[] | null }): Article {
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
    thumbnailMeta: row.thumbnail_meta,
    imageMeta: row.image_meta,
    bylines: toBylines(row.bylines),
    standfirst: row.standfirst,
    corrections: toCorrections(row.corrections),
    needsAltText: lacksAltText({
      thumbnail: row.thumbnail,
      image: row.image,
      thumbnailMeta: row.thumbnail_meta,
      imageMeta: row.image_meta,
    }),
    hostSites: row.host_sites ?? [],
    status: row.status,
    isAggregated: row.is_aggregated,
    source: row.source,
    sourceUrl: row.source_url,
    rssFeedGuid: row.rss_feed_guid,
    publisherId: row.publisher_id,
    publishedAt: row.published_at,
    sourcePublishedAt: row.source_published_at,
    reviewedAt: row.reviewed_at,
    reviewReason: row.review_reason,
    embargoUntil: row.embargo_until,
    createdBy: row.created_by,
    submittedBy: row.submitted_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
