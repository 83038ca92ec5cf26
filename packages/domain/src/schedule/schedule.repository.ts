import { type Selectable, sql } from 'kysely';
import type { DbOrTx, Tx } from '../db/create-db';
import type { ScheduledActionKind, ScheduledActionTable, ScheduleStatus } from '../db/tables';
import type { Release, ScheduledAction } from './scheduled-action';

// All SQL of scheduled publishing: actions, releases, the worker's claims and the embargo column.

type ActionRow = Selectable<ScheduledActionTable> & {
  article_title: string | null;
  article_slug: string | null;
  release_name: string | null;
  created_by_email: string | null;
};

function toScheduledAction(row: ActionRow): ScheduledAction {
  return {
    id: row.id,
    articleId: row.article_id,
    articleTitle: row.article_title,
    articleSlug: row.article_slug,
    kind: row.kind,
    dueAt: row.due_at,
    status: row.status,
    releaseId: row.release_id,
    releaseName: row.release_name,
    createdBy: row.created_by,
    createdByEmail: row.created_by_email,
    ranAt: row.ran_at,
    latenessMs: row.lateness_ms === null ? null : Number(row.lateness_ms),
    failureReason: row.failure_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function selectActions(db: DbOrTx) {
  return db
    .selectFrom('scheduled_actions as sa')
    .leftJoin('articles as a', 'a.id', 'sa.article_id')
    .leftJoin('releases as r', 'r.id', 'sa.release_id')
    .leftJoin('users as u', 'u.id', 'sa.created_by')
    .selectAll('sa')
    .select(['a.title as article_title', 'a.slug as article_slug', 'r.name as release_name'])
    .select('u.email as created_by_email');
}

export interface ScheduledActionFilter {
  statuses?: readonly ScheduleStatus[];
  articleId?: string;
  releaseId?: string;
  /** Due at or after. */
  from?: Date;
  /** Due before. */
  to?: Date;
}

/** Actions matching `filter`, by due time (then creation), at most `limit`. */
export async function findScheduledActions(
  db: DbOrTx,
  filter: ScheduledActionFilter,
  limit: number,
): Promise<ScheduledAction[]> {
  let query = selectActions(db);
  if (filter.statuses && filter.statuses.length > 0) query = query.where('sa.status', 'in', filter.statuses);
  if (filter.articleId) query = query.where('sa.article_id', '=', filter.articleId);
  if (filter.releaseId) query = query.where('sa.release_id', '=', filter.releaseId);
  if (filter.from) query = query.where('sa.due_at', '>=', filter.from);
  if (filter.to) query = query.where('sa.due_at', '<', filter.to);
  const rows = await query
    .orderBy('sa.due_at')
    .orderBy('sa.created_at')
    .orderBy('sa.id')
    .limit(limit)
    .execute();
  return rows.map((row) => toScheduledAction(row as ActionRow));
}

export async function findScheduledActionById(db: DbOrTx, id: string): Promise<ScheduledAction | undefined> {
  const row = await selectActions(db).where('sa.id', '=', id).executeTakeFirst();
  return row && toScheduledAction(row as ActionRow);
}

export interface NewScheduledAction {
  articleId: string;
  kind: ScheduledActionKind;
  dueAt: Date;
  releaseId?: string | null;
  createdBy: string | null;
}

export async function insertScheduledActions(
  db: DbOrTx,
  actions: readonly NewScheduledAction[],
): Promise<string[]> {
  if (actions.length === 0) return [];
  const rows = await db
    .insertInto('scheduled_actions')
    .values(
      actions.map((action) => ({
        article_id: action.articleId,
        kind: action.kind,
        due_at: action.dueAt,
        release_id: action.releaseId ?? null,
        created_by: action.createdBy,
      })),
    )
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Moves a still-scheduled lone action; false when there is none (gone, ran, cancelled or in a release). */
export async function updateScheduledActionDue(db: DbOrTx, id: string, dueAt: Date): Promise<boolean> {
  const result = await db
    .updateTable('scheduled_actions')
    .set({ due_at: dueAt, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '=', 'scheduled')
    .where('release_id', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Cancels a still-scheduled lone action; false when there is none. */
export async function cancelScheduledActionRow(db: DbOrTx, id: string): Promise<boolean> {
  const result = await db
    .updateTable('scheduled_actions')
    .set({ status: 'cancelled', updated_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '=', 'scheduled')
    .where('release_id', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Moves the article's scheduled lone publishes due before `until` to `until` (an embargo was set). */
export async function deferScheduledPublishes(db: DbOrTx, articleId: string, until: Date): Promise<void> {
  await db
    .updateTable('scheduled_actions')
    .set({ due_at: until, updated_at: sql`now()` })
    .where('article_id', '=', articleId)
    .where('kind', '=', 'publish')
    .where('status', '=', 'scheduled')
    .where('release_id', 'is', null)
    .where('due_at', '<', until)
    .execute();
}

/** Whether the article has a scheduled publish due at or after `at`. */
export async function hasScheduledPublishFrom(db: DbOrTx, articleId: string, at: Date): Promise<boolean> {
  const row = await db
    .selectFrom('scheduled_actions')
    .select('id')
    .where('article_id', '=', articleId)
    .where('kind', '=', 'publish')
    .where('status', '=', 'scheduled')
    .where('due_at', '>=', at)
    .executeTakeFirst();
  return row !== undefined;
}

/** The article's status and embargo, its row locked until the transaction ends. */
export async function lockArticleForSchedule(
  tx: Tx,
  id: string,
): Promise<{ status: string; embargoUntil: Date | null } | undefined> {
  const row = await tx
    .selectFrom('articles')
    .select(['status', 'embargo_until'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row && { status: row.status, embargoUntil: row.embargo_until };
}

export async function updateArticleEmbargo(db: DbOrTx, id: string, until: Date | null): Promise<void> {
  await db
    .updateTable('articles')
    .set({ embargo_until: until, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** The articles among `ids` that exist, with their embargo. */
export async function findArticleEmbargoes(
  db: DbOrTx,
  ids: readonly string[],
): Promise<Map<string, Date | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('articles')
    .select(['id', 'embargo_until'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((row) => [row.id, row.embargo_until]));
}

// Releases

type ReleaseRow = {
  id: string;
  name: string;
  due_at: Date;
  status: ScheduleStatus;
  created_by: string | null;
  created_by_email: string | null;
  ran_at: Date | null;
  lateness_ms: string | null;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
};

function selectReleases(db: DbOrTx) {
  return db
    .selectFrom('releases as r')
    .leftJoin('users as u', 'u.id', 'r.created_by')
    .selectAll('r')
    .select('u.email as created_by_email');
}

async function withActions(db: DbOrTx, rows: ReleaseRow[]): Promise<Release[]> {
  if (rows.length === 0) return [];
  const actions = await selectActions(db)
    .where(
      'sa.release_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('sa.created_at')
    .orderBy('sa.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    dueAt: row.due_at,
    status: row.status,
    createdBy: row.created_by,
    createdByEmail: row.created_by_email,
    ranAt: row.ran_at,
    latenessMs: row.lateness_ms === null ? null : Number(row.lateness_ms),
    failureReason: row.failure_reason,
    actions: actions
      .filter((action) => action.release_id === row.id)
      .map((action) => toScheduledAction(action as ActionRow)),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));
}

export async function findReleases(
  db: DbOrTx,
  filter: { statuses?: readonly ScheduleStatus[]; from?: Date; to?: Date },
  limit: number,
): Promise<Release[]> {
  let query = selectReleases(db);
  if (filter.statuses && filter.statuses.length > 0) query = query.where('r.status', 'in', filter.statuses);
  if (filter.from) query = query.where('r.due_at', '>=', filter.from);
  if (filter.to) query = query.where('r.due_at', '<', filter.to);
  const rows = await query.orderBy('r.due_at').orderBy('r.id').limit(limit).execute();
  return withActions(db, rows as ReleaseRow[]);
}

export async function findReleaseById(db: DbOrTx, id: string): Promise<Release | undefined> {
  const row = await selectReleases(db).where('r.id', '=', id).executeTakeFirst();
  return row && (await withActions(db, [row as ReleaseRow]))[0];
}

export async function insertRelease(
  db: DbOrTx,
  release: { name: string; dueAt: Date; createdBy: string | null },
): Promise<string> {
  const row = await db
    .insertInto('releases')
    .values({ name: release.name, due_at: release.dueAt, created_by: release.createdBy })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Moves a still-scheduled release and its actions (one transaction); false when there is none. */
export async function updateReleaseDue(tx: Tx, id: string, dueAt: Date): Promise<boolean> {
  const result = await tx
    .updateTable('releases')
    .set({ due_at: dueAt, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '=', 'scheduled')
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await tx
    .updateTable('scheduled_actions')
    .set({ due_at: dueAt, updated_at: sql`now()` })
    .where('release_id', '=', id)
    .where('status', '=', 'scheduled')
    .execute();
  return true;
}

export async function cancelReleaseRows(tx: Tx, id: string): Promise<boolean> {
  const result = await tx
    .updateTable('releases')
    .set({ status: 'cancelled', updated_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '=', 'scheduled')
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await tx
    .updateTable('scheduled_actions')
    .set({ status: 'cancelled', updated_at: sql`now()` })
    .where('release_id', '=', id)
    .where('status', '=', 'scheduled')
    .execute();
  return true;
}

// The worker's side

/** A due action as the scheduler runs it. */
export interface DueAction {
  id: string;
  articleId: string;
  kind: ScheduledActionKind;
  dueAt: Date;
}

/**
 * Claims up to `limit` lone actions due at `now`, oldest first, locking them (FOR UPDATE SKIP LOCKED: another
 * replica's claim skips them) until the transaction ends.
 */
export async function claimDueActions(
  tx: Tx,
  now: Date,
  limit: number,
  lane: { index: number; of: number } = { index: 0, of: 1 },
): Promise<DueAction[]> {
  const rows = await tx
    .selectFrom('scheduled_actions')
    .select(['id', 'article_id', 'kind', 'due_at'])
    .where('status', '=', 'scheduled')
    .where('release_id', 'is', null)
    .where('due_at', '<=', now)
    // A lane takes the articles whose hash falls in it: one article's actions always go through one lane, in order.
    .$if(lane.of > 1, (q) =>
      q.where(sql<boolean>`mod(abs(hashtext(article_id::text)), ${lane.of}) = ${lane.index}`),
    )
    .orderBy('due_at')
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  return rows.map((row) => ({ id: row.id, articleId: row.article_id, kind: row.kind, dueAt: row.due_at }));
}

/** Claims one release due at `now` (FOR UPDATE SKIP LOCKED) and its scheduled actions. */
export async function claimDueRelease(
  tx: Tx,
  now: Date,
): Promise<{ id: string; dueAt: Date; actions: DueAction[] } | undefined> {
  const release = await tx
    .selectFrom('releases')
    .select(['id', 'due_at'])
    .where('status', '=', 'scheduled')
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .orderBy('id')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  if (!release) return undefined;
  const rows = await tx
    .selectFrom('scheduled_actions')
    .select(['id', 'article_id', 'kind', 'due_at'])
    .where('release_id', '=', release.id)
    .where('status', '=', 'scheduled')
    .orderBy('created_at')
    .orderBy('id')
    .forUpdate()
    .execute();
  return {
    id: release.id,
    dueAt: release.due_at,
    actions: rows.map((row) => ({
      id: row.id,
      articleId: row.article_id,
      kind: row.kind,
      dueAt: row.due_at,
    })),
  };
}

export interface ActionOutcome {
  id: string;
  status: 'done' | 'failed';
  failureReason: string | null;
}

/** Records what became of claimed actions (one statement), ran at `ranAt`, lateness from each due time. */
export async function recordActionOutcomes(
  tx: Tx,
  outcomes: readonly ActionOutcome[],
  ranAt: Date,
): Promise<void> {
  if (outcomes.length === 0) return;
  await sql`
    update scheduled_actions sa
       set status = o.status, failure_reason = o.reason, ran_at = ${ranAt}::timestamptz,
           lateness_ms = round(extract(epoch from (${ranAt}::timestamptz - sa.due_at)) * 1000)::bigint,
           updated_at = now()
      from unnest(${outcomes.map((o) => o.id)}::uuid[], ${outcomes.map((o) => o.status)}::text[],
                  ${outcomes.map((o) => o.failureReason)}::text[]) as o(id, status, reason)
     where sa.id = o.id`.execute(tx);
}

export async function recordReleaseOutcome(
  tx: Tx,
  id: string,
  outcome: { status: 'done' | 'failed'; failureReason: string | null },
  ranAt: Date,
): Promise<void> {
  await sql`
    update releases
       set status = ${outcome.status}, failure_reason = ${outcome.failureReason}, ran_at = ${ranAt}::timestamptz,
           lateness_ms = round(extract(epoch from (${ranAt}::timestamptz - due_at)) * 1000)::bigint,
           updated_at = now()
     where id = ${id}`.execute(tx);
}

/**
 * The earliest due time of anything scheduled (lone actions and releases), or null: the scheduler's one idle
 * query (two index-only probes of the partial indexes).
 */
export async function findNextDueAt(db: DbOrTx): Promise<Date | null> {
  const { rows } = await sql<{ next: Date | null }>`
    select least(
      (select min(due_at) from scheduled_actions where status = 'scheduled' and release_id is null),
      (select min(due_at) from releases where status = 'scheduled')
    ) as next`.execute(db);
  return rows[0]?.next ?? null;
}
