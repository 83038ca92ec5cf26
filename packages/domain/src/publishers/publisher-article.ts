import type { ArticleRow, ArticleStatus } from '../db/tables';

/** One of a publisher's imported articles, as its dashboard lists it (no body). */
export interface PublisherArticle {
  id: string;
  title: string;
  slug: string;
  status: ArticleStatus;
  tags: string[];
  thumbnail: string | null;
  source: string | null;
  sourceUrl: string | null;
  rssFeedGuid: string | null;
  publishedAt: Date | null;
  /** When an administrator approved or rejected it (null when no review decided its status). */
  reviewedAt: Date | null;
  /** The administrator's reason for that decision, if one was given. */
  reviewReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const publisherArticleColumns = [
  'id',
  'title',
  'slug',
  'status',
  'tags',
  'thumbnail',
  'source',
  'source_url',
  'rss_feed_guid',
  'published_at',
  'reviewed_at',
  'review_reason',
  'created_at',
  'updated_at',
] as const;

export function toPublisherArticle(
  row: Pick<ArticleRow, (typeof publisherArticleColumns)[number]>,
): PublisherArticle {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    status: row.status,
    tags: row.tags,
    thumbnail: row.thumbnail,
    source: row.source,
    sourceUrl: row.source_url,
    rssFeedGuid: row.rss_feed_guid,
    publishedAt: row.published_at,
    reviewedAt: row.reviewed_at,
    reviewReason: row.review_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
