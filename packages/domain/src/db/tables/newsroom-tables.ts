import type { ColumnType, Generated } from 'kysely';
import type { ArticleStatus, CreatedAt, Timestamp, UpdatedAt } from './columns';

// The newsroom's day: preview links, scheduled actions and releases, article revisions.

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

/** What actions and releases share: their state, who scheduled them, and how their run went. */
interface ScheduledRunColumns {
  due_at: Timestamp;
  status: ColumnType<ScheduleStatus, ScheduleStatus | undefined, ScheduleStatus>;
  created_by: string | null;
  ran_at: Timestamp | null;
  /** ran_at - due_at in milliseconds (bigint, read as a string). */
  lateness_ms: ColumnType<string | null, number | null | undefined, number | null>;
  failure_reason: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ScheduledActionTable extends ScheduledRunColumns {
  id: Generated<string>;
  /** No foreign key: an action whose article was deleted fails with a reason and stays on record. */
  article_id: string;
  kind: ScheduledActionKind;
  release_id: string | null;
}

export interface ReleaseTable extends ScheduledRunColumns {
  id: Generated<string>;
  name: string;
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
