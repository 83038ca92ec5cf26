import { type ArticleCounts, toArticleCounts } from '../articles/article-counts';
import type { ArticleStatus, PublisherRow } from '../db/tables';
import { type ImportRules, toImportRules } from '../import-rules';
import { type FeedHealth, toFeedHealth } from '../imports/feed-health';

/** A publisher (external content provider) as the dashboard sees it: settings, state and its login e-mail. */
export interface Publisher {
  id: string;
  name: string;
  /** The e-mail of the publisher's login (null only if the login was removed by hand). */
  email: string | null;
  feedUrl: string | null;
  defaultTags: string[];
  /** Slugs of the child sites imported articles are attached to. */
  defaultHostSites: string[];
  approved: boolean;
  autoApprove: boolean;
  disabledAt: Date | null;
  lastFetchedAt: Date | null;
  lastFailedAt: Date | null;
  lastError: string | null;
  consecutiveFailures: number;
  /** Administrator-set rules for what and how the feed imports. */
  importRules: ImportRules;
  /** When the feed's server answered 410 Gone (no longer fetched until a new feed URL is saved). */
  feedGoneAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Where a publisher stands: awaiting approval, approved (and polled), or disabled (whatever its approval). */
export type PublisherState = 'awaiting' | 'approved' | 'disabled';

export function publisherState(publisher: Pick<Publisher, 'approved' | 'disabledAt'>): PublisherState {
  if (publisher.disabledAt !== null) return 'disabled';
  return publisher.approved ? 'approved' : 'awaiting';
}

/** A publisher with its state, how many of its articles are in each status, and its feed's health. */
export interface PublisherDetail extends Publisher {
  state: PublisherState;
  articleCounts: ArticleCounts;
  feedHealth: FeedHealth;
}

export type PublisherDetailRow = PublisherRow & {
  email: string | null;
  default_host_sites: string[] | null;
  article_counts: Partial<Record<ArticleStatus, number>> | null;
  last_new_item_at: Date | null;
  /** New articles in the last [24 hours, 7 days]. */
  recent_item_counts: [number, number] | null;
  mean_interval_seconds: number | null;
};

export function toPublisherDetail(row: PublisherDetailRow): PublisherDetail {
  const publisher = toPublisher(row);
  const counts = Object.entries(row.article_counts ?? {}).map(([status, count]) => ({
    status: status as ArticleStatus,
    count: Number(count),
  }));
  return {
    ...publisher,
    state: publisherState(publisher),
    articleCounts: toArticleCounts(counts),
    feedHealth: toFeedHealth({
      ...publisher,
      lastNewItemAt: row.last_new_item_at,
      itemsLast24h: row.recent_item_counts?.[0] ?? 0,
      itemsLast7d: row.recent_item_counts?.[1] ?? 0,
      meanIntervalSeconds: row.mean_interval_seconds === null ? null : Number(row.mean_interval_seconds),
      feedPausedAt: row.feed_paused_at,
      feedPauseReason: row.feed_pause_reason,
    }),
  };
}

export function toPublisher(
  row: PublisherRow & { email: string | null; default_host_sites: string[] | null },
): Publisher {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    feedUrl: row.feed_url,
    defaultTags: row.default_tags,
    defaultHostSites: row.default_host_sites ?? [],
    approved: row.approved,
    autoApprove: row.auto_approve,
    disabledAt: row.disabled_at,
    lastFetchedAt: row.last_fetched_at,
    lastFailedAt: row.last_failed_at,
    lastError: row.last_error,
    consecutiveFailures: row.consecutive_failures,
    importRules: toImportRules(row.import_rules),
    feedGoneAt: row.feed_gone_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
