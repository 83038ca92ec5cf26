import type { ColumnType, Generated, RawBuilder } from 'kysely';
import type { Byline as StoredByline, StoredCorrection, StoredImageMeta } from '../../article-fields';
import type { ImportRules } from '../../import-rules';
import type {
  ArticleStatus,
  CreatedAt,
  OptionalNullable,
  TextArray,
  Timestamp,
  UpdatedAt,
  UserRole,
} from './columns';

// The content and its people: articles, publishers, users, sites and their keys, sessions, the change outbox.

export interface ArticleTable {
  id: Generated<string>;
  title: string;
  slug: string;
  body: Generated<string>;
  tags: TextArray;
  category: string | null;
  section: string | null;
  thumbnail: string | null;
  image: string | null;
  status: ArticleStatus;
  is_aggregated: Generated<boolean>;
  source: string | null;
  source_url: string | null;
  rss_feed_guid: string | null;
  publisher_id: string | null;
  published_at: Timestamp | null;
  /** Imported articles: the feed item's own date (null when the item has none). */
  source_published_at: Timestamp | null;
  /** Plain text, at most 300 characters: the feed item's summary, else the body's first paragraph. */
  excerpt: Generated<string>;
  /** When an approve or reject made the current status; null otherwise (see migration 2026-11-27T1220). */
  reviewed_at: Timestamp | null;
  /** The administrator's optional reason for that decision, shown to the publisher (1..500 characters). */
  review_reason: string | null;
  /** Not on any child-site route before this time; null once published (scheduled publishing, issue 29). */
  embargo_until: Timestamp | null;
  /** The staff user who created it by hand (null for imports and articles from before issue 31). */
  created_by: OptionalNullable<string>;
  /** Who last submitted it for review (a contributor's draft becoming pending). */
  submitted_by: OptionalNullable<string>;
  /** Issue 32 (migration 2026-11-28T0700): jsonb, written as JSON text. */
  bylines: ColumnType<StoredByline[], string | undefined, string>;
  /** Plain text shown under the headline, 1..500 characters; null: none. */
  standfirst: string | null;
  thumbnail_meta: ColumnType<StoredImageMeta | null, string | null | undefined, string | null>;
  image_meta: ColumnType<StoredImageMeta | null, string | null | undefined, string | null>;
  /** Appended to in SQL (`corrections || $1`), so an update may be an expression. */
  corrections: ColumnType<StoredCorrection[], string | undefined, string | RawBuilder<string>>;
  // search_vector (tsvector, kept by a trigger, migration 2026-11-23T1910) is left out on purpose: only the
  // search SQL reads it (published-filters.ts), and no code may write it.
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface PublisherTable {
  id: Generated<string>;
  name: string;
  feed_url: string | null;
  default_tags: TextArray;
  approved: Generated<boolean>;
  auto_approve: Generated<boolean>;
  disabled_at: Timestamp | null;
  etag: string | null;
  last_modified: string | null;
  last_fetched_at: Timestamp | null;
  last_error: string | null;
  /** When the feed last failed for good (the fetch job gave up); last_fetched_at is the last success. */
  last_failed_at: Timestamp | null;
  consecutive_failures: Generated<number>;
  /** Administrator-set import rules (ImportRules, validated before they are stored). */
  import_rules: ColumnType<Partial<ImportRules>, string | undefined, string>;
  /** Set when the feed was paused after too many consecutive failures; the fan-out skips it. */
  feed_paused_at: Timestamp | null;
  feed_pause_reason: string | null;
  /** sha256 (hex) of the last imported feed body: an identical body is not parsed again. */
  feed_body_hash: string | null;
  /** The feed's own refresh hint (RSS ttl, sy:updatePeriod/Frequency) from its last full body, seconds. */
  feed_refresh_seconds: number | null;
  /** The hourly fan-out skips the publisher before this time (server hints, capped); null: every hour. */
  next_fetch_after: Timestamp | null;
  /** When the feed's server answered 410 Gone: not polled until a new feed URL is saved (or a fetch succeeds). */
  feed_gone_at: Timestamp | null;
  /** The permanent redirect (301/308) target seen on the last `redirect_count` consecutive fetches. */
  redirect_target: string | null;
  redirect_count: Generated<number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** Something the system changed on a publisher by itself (a moved feed URL, a feed marked gone). */
export interface PublisherHistoryTable {
  id: Generated<string>;
  publisher_id: string;
  at: ColumnType<Date, Date | string | undefined, never>;
  event: string;
  detail: ColumnType<Record<string, unknown>, string | undefined, never>;
}

export interface UserTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  role: UserRole;
  publisher_id: string | null;
  disabled_at: Timestamp | null;
  /** Incremented by every password change or reset; tokens carrying an older version are refused. */
  token_version: Generated<number>;
  /** Deleted staff: the row stays (the content keeps its history), the login is gone for good. */
  deleted_at: OptionalNullable<Date>;
  last_sign_in_at: OptionalNullable<Date>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** The name shown as a byline (1..100 characters); null: none set. */
  display_name: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SiteTable {
  id: Generated<string>;
  slug: string;
  name: string;
  domain: string | null;
  /** ISO 639 language code (optionally with a region), named by the Google News sitemap. */
  language: ColumnType<string, string | undefined, string>;
  /** How the site's public article URLs are built, e.g. `https://{domain}/news/{slug}`; null: not set. */
  article_url_template: ColumnType<string | null, string | null | undefined, string | null>;
  /** Browser origins (`https://metro.example.com`) whose pages may read with this site's keys (CORS). */
  allowed_origins: ColumnType<string[], string[] | undefined, string[]>;
  /** Where the child site serves its feeds and sitemaps; null: the article URL template's origin. */
  public_base_url: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface SiteApiKeyTable {
  id: Generated<string>;
  site_id: string;
  name: string;
  key_hash: Buffer;
  key_prefix: string;
  created_at: CreatedAt;
  revoked_at: Timestamp | null;
  /** Recorded by the API in batches (at most once a minute per process): minute precision at best. */
  last_used_at: Timestamp | null;
  /** 'secret' (server-side, private answers) or 'publishable' (read-only, answers a CDN may keep). */
  kind: ColumnType<SiteKeyKind, SiteKeyKind | undefined, never>;
}

export type SiteKeyKind = 'secret' | 'publishable';

export interface ArticleSiteTable {
  article_id: string;
  site_id: string;
  /** Copies kept by triggers (listings order a site's articles from this table alone); never written by code. */
  published_at: ColumnType<Date | null, never, never>;
  is_aggregated: ColumnType<boolean, never, never>;
}

export interface PublisherDefaultSiteTable {
  publisher_id: string;
  site_id: string;
}

/** A dashboard cookie session: only the SHA-256 of the cookie's token is stored. */
export interface DashboardSessionTable {
  id: Generated<string>;
  token_hash: Buffer;
  user_id: string;
  created_at: CreatedAt;
  last_seen_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** The absolute end of the session (created_at + the maximum lifetime). */
  expires_at: Timestamp;
  /** When this session's second factor was verified; null: never (see users/two-factor/README.md). */
  second_factor_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/**
 * The outbox of article changes (written only by triggers; see packages/domain/src/changes/README.md):
 * one row per (transaction, article) for articles published before or after the transaction's changes.
 */
export interface ArticleChangeTable {
  /** The writing transaction's id (xid8, read as a decimal string). */
  xid: ColumnType<string, never, never>;
  article_id: string;
  changed_at: ColumnType<Date, never, never>;
  visible_before: boolean;
  visible_after: boolean;
  deleted: boolean;
  sites_before: string[];
  sites_after: string[];
  slug_before: string | null;
  slug_after: string | null;
}

export interface ArticleChangesHorizonTable {
  id: ColumnType<boolean, never, never>;
  /** Retention has removed every article_changes row with xid <= this. */
  pruned_through: ColumnType<string, string, string>;
}
