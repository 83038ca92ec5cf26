import type { ColumnType, Generated, Insertable, RawBuilder, Selectable, Updateable } from 'kysely';
import type { Byline as StoredByline, StoredCorrection, StoredImageMeta } from '../article-fields';
import type { ImportRules } from '../import-rules';

/** A timestamp column: read as Date, written as Date or SQL, defaulted by Postgres where Generated. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** A text[] column: read as string[], written as string[]. */
type TextArray = ColumnType<string[], string[] | undefined, string[]>;

export type ArticleStatus = 'draft' | 'pending' | 'published' | 'rejected';
/** `admin` is the administrator (the stored value predates the staff roles); see packages/domain/src/policy. */
export type UserRole = 'admin' | 'editor' | 'contributor' | 'reviewer' | 'publisher';
/** The roles a grant gives on one site. */
export type SiteRole = 'editor' | 'contributor' | 'reviewer';
/** A nullable column new rows may leave out (null). */
type OptionalNullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

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

/** A webhook endpoint registered by an administrator (see packages/domain/src/webhooks/README.md). */
export interface WebhookEndpointTable {
  id: Generated<string>;
  url: string;
  events: TextArray;
  site_id: string | null;
  enabled: Generated<boolean>;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Timestamp | null;
  failing_since: Timestamp | null;
  disabled_reason: string | null;
  disabled_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** One event, with the exact body every delivery of it sends. */
export interface WebhookEventTable {
  id: string;
  type: string;
  occurred_at: Timestamp;
  body: string;
  created_at: CreatedAt;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event to one endpoint: its attempts so far and the outcome of the last one. */
export interface WebhookDeliveryTable {
  id: Generated<string>;
  endpoint_id: string;
  event_id: string;
  status: ColumnType<WebhookDeliveryStatus, WebhookDeliveryStatus | undefined, WebhookDeliveryStatus>;
  attempts: Generated<number>;
  attempt_limit: number | null;
  next_attempt_at: Timestamp | null;
  locked_until: Timestamp | null;
  last_attempt_at: Timestamp | null;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  delivered_at: Timestamp | null;
  created_at: CreatedAt;
}

/** One attempt of a delivery (the log the dashboard shows; the delivery row keeps the last one's summary). */
export interface WebhookDeliveryAttemptTable {
  delivery_id: string;
  attempt: number;
  attempted_at: CreatedAt;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** The answer's first 1 KB (UTF-8, never half a character); null without an answer. */
  response_excerpt: string | null;
  next_attempt_at: Timestamp | null;
}

/** The webhook relay's position in the article-change outbox (one row). */
export interface WebhookRelayPositionTable {
  id: ColumnType<boolean, never, never>;
  xid: ColumnType<string, string, string>;
  article_id: string;
}

export interface Database {
  articles: ArticleTable;
  publishers: PublisherTable;
  publisher_history: PublisherHistoryTable;
  users: UserTable;
  sites: SiteTable;
  site_api_keys: SiteApiKeyTable;
  article_sites: ArticleSiteTable;
  publisher_default_sites: PublisherDefaultSiteTable;
  dashboard_sessions: DashboardSessionTable;
  article_changes: ArticleChangeTable;
  article_changes_horizon: ArticleChangesHorizonTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_events: WebhookEventTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_relay_position: WebhookRelayPositionTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptTable;
  article_preview_links: ArticlePreviewLinkTable;
  scheduled_actions: ScheduledActionTable;
  releases: ReleaseTable;
  article_revisions: ArticleRevisionTable;
  article_revision_compactions: ArticleRevisionCompactionTable;
  user_totp: UserTotpTable;
  user_recovery_codes: UserRecoveryCodeTable;
  second_factor_challenges: SecondFactorChallengeTable;
  security_settings: SecuritySettingsTable;
  cdn_purge_position: CdnPurgePositionTable;
  cdn_purge_requests: CdnPurgeRequestTable;
  cdn_purges: CdnPurgeTable;
  // team-roles (issue 31)
  user_site_grants: UserSiteGrantTable;
  invitations: InvitationTable;
  password_resets: PasswordResetTable;
}

export type ArticleRow = Selectable<ArticleTable>;
export type NewArticleRow = Insertable<ArticleTable>;
export type ArticleRowUpdate = Updateable<ArticleTable>;
export type PublisherRow = Selectable<PublisherTable>;
export type NewPublisherRow = Insertable<PublisherTable>;
export type PublisherRowUpdate = Updateable<PublisherTable>;
export type UserRow = Selectable<UserTable>;
export type NewUserRow = Insertable<UserTable>;
export type SiteRow = Selectable<SiteTable>;
export type NewSiteRow = Insertable<SiteTable>;
export type SiteRowUpdate = Updateable<SiteTable>;
export type SiteApiKeyRow = Selectable<SiteApiKeyTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;

/** A preview link of one article (issue 29): only the token's sha256 is stored (see migration 2026-11-28T0200). */
export interface ArticlePreviewLinkTable {
  id: Generated<string>;
  article_id: string;
  token_hash: Buffer;
  /** The first characters of the token, to tell links apart in lists. */
  token_prefix: string;
  created_by: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  /** The client article frozen when the link was pinned (JSON); null: the link follows the live article. */
  pinned_article: ColumnType<unknown | null, string | null, string | null>;
}

// Scheduled publishing (issue 29): migration 2026-11-28T0100-scheduled-actions.
export type ScheduleStatus = 'scheduled' | 'done' | 'failed' | 'cancelled';
export type ScheduledActionKind = 'publish' | 'unpublish';

export interface ScheduledActionTable {
  id: Generated<string>;
  /** No foreign key: an action whose article was deleted fails with a reason and stays on record. */
  article_id: string;
  kind: ScheduledActionKind;
  due_at: Timestamp;
  status: ColumnType<ScheduleStatus, ScheduleStatus | undefined, ScheduleStatus>;
  release_id: string | null;
  created_by: string | null;
  ran_at: Timestamp | null;
  /** ran_at - due_at in milliseconds (bigint, read as a string). */
  lateness_ms: ColumnType<string | null, number | null | undefined, number | null>;
  failure_reason: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ReleaseTable {
  id: Generated<string>;
  name: string;
  due_at: Timestamp;
  status: ColumnType<ScheduleStatus, ScheduleStatus | undefined, ScheduleStatus>;
  created_by: string | null;
  ran_at: Timestamp | null;
  lateness_ms: ColumnType<string | null, number | null | undefined, number | null>;
  failure_reason: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

// Article revisions (issue 30, migration 2026-11-28T0300): one row per write to an article.
/** Articles with a whole snapshot below their newest revision, waiting for the worker's compaction pass. */
export interface ArticleRevisionCompactionTable {
  article_id: string;
  due_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface ArticleRevisionTable {
  article_id: string;
  n: number;
  /** Updatable: a collapsed autosave moves its revision's time to the latest save. */
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  actor_kind: 'user' | 'feed' | 'api-client' | 'scheduler' | 'system';
  actor_id: string | null;
  actor_label: string;
  source: 'editor' | 'autosave' | 'api' | 'import' | 'review' | 'bulk' | 'schedule' | 'restore';
  reason: string | null;
  /** The article's status at this revision. */
  status: ArticleStatus;
  /**
   * 'snapshot': `data` is the whole snapshot (the newest revision, and older ones until the worker's compaction
   * pass ran); 'delta': what differs from revision n + 1.
   */
  kind: 'snapshot' | 'delta';
  data: ColumnType<unknown, string, string>;
}

// Second factor (issue 31, team-2fa): see packages/domain/src/users/two-factor/README.md.

/** One TOTP enrolment per user; confirmed_at null while the enrolment awaits its first code. */
export interface UserTotpTable {
  user_id: string;
  /** AES-256-GCM: 12-byte IV, 16-byte tag, then the ciphertext of the raw secret. */
  secret_encrypted: Buffer;
  confirmed_at: Timestamp | null;
  /** The time step of the last accepted code (bigint, read as a string); a code at or before it is refused. */
  last_used_step: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  failed_attempts: ColumnType<number, number | undefined, number>;
  locked_until: Timestamp | null;
  created_at: CreatedAt;
}

export interface UserRecoveryCodeTable {
  id: Generated<string>;
  user_id: string;
  /** SHA-256 of the normalised code (16 base32 characters, 80 random bits). */
  code_hash: Buffer;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

/** A half-verified sign-in: the password was right, the second factor is still owed. */
export interface SecondFactorChallengeTable {
  id: Generated<string>;
  token_hash: Buffer;
  user_id: string;
  /** What the completed sign-in yields: a bearer token or a dashboard session. */
  kind: 'token' | 'session';
  attempts: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

/** The single row of security policy. */
export interface SecuritySettingsTable {
  id: ColumnType<boolean, never, never>;
  require_admin_two_factor: boolean;
  updated_at: UpdatedAt;
  updated_by: string | null;
}

/** One audit event (append-only, hash-chained: packages/domain/src/audit). */
export interface AuditLogTable {
  seq: ColumnType<string, string, never>;
  at: ColumnType<Date, Date, never>;
  actor_type: ColumnType<string, string, never>;
  actor_id: ColumnType<string | null, string | null, never>;
  actor_label: ColumnType<string | null, string | null, never>;
  address: ColumnType<string | null, string | null, never>;
  action: ColumnType<string, string, never>;
  object_type: ColumnType<string, string, never>;
  object_id: ColumnType<string | null, string | null, never>;
  site_id: ColumnType<string | null, string | null, never>;
  changes: ColumnType<unknown, string | null, never>;
  prev_hash: ColumnType<string, string, never>;
  hash: ColumnType<string, string, never>;
}

/** The audit chain's head (what the next append chains to) and start (moved by pruning). One row. */
export interface AuditChainTable {
  id: ColumnType<boolean, never, never>;
  head_seq: string;
  head_hash: string;
  start_seq: string;
  start_prev_hash: string;
}

// Declaration merging keeps the audit tables' hunk at the end of the file (fewer merge conflicts).
export interface Database {
  audit_log: AuditLogTable;
  audit_chain: AuditChainTable;
}

// CDN purges (issue 33): the purge relay's position in the outbox, purges the outbox does not record, and the
// pending purges per provider and surrogate key.
export interface CdnPurgePositionTable {
  id: ColumnType<boolean, never, never>;
  xid: ColumnType<string, string, string>;
  article_id: string;
}

export interface CdnPurgeRequestTable {
  id: Generated<string>;
  key: string;
  requested_at: Generated<Date>;
}

export interface CdnPurgeTable {
  provider: string;
  key: string;
  generation: Generated<number>;
  requested_at: Generated<Date>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  claimed_until: Date | null;
}

// team-roles (issue 31)
/** One site role of a staff user: editor, contributor or reviewer on that site. */
export interface UserSiteGrantTable {
  user_id: string;
  site_id: string;
  role: SiteRole;
}

/** An invitation by e-mail: the role and grants the invitee gets on accepting; the token stored as sha256 hex. */
export interface InvitationTable {
  id: Generated<string>;
  email: string;
  role: Exclude<UserRole, 'publisher'>;
  grants: ColumnType<{ siteId: string; role: SiteRole }[], string | undefined, string>;
  token_hash: string;
  invited_by: string | null;
  expires_at: Timestamp;
  used_at: OptionalNullable<Date>;
  created_at: CreatedAt;
}

/** A one-time password reset link (sha256 hex of the token). */
export interface PasswordResetTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: OptionalNullable<Date>;
  created_at: CreatedAt;
}
