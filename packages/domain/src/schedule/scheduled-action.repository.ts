import { type Selectable, sql } from 'kysely';
import type { DbOrTx, Tx } from '../db/create-db';
import type { ScheduledActionKind, ScheduledActionTable, ScheduleStatus } from '../db/tables';
import type { ScheduledAction } from './scheduled-action';

// The SQL of scheduled actions (lone or in a release) and of the article's embargo column.

export type ActionRow = Selectable<ScheduledActionTable> & {
  article_title: string | null;
  article_slug: string | null;
  release_name: string | null;
  created_by_email: string | null;
};

export function toScheduledAction(row: ActionRow): ScheduledAction {
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

export function selectActions(db: DbOrTx) {
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
