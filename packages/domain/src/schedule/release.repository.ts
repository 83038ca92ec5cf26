import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../db/create-db';
import type { ScheduleStatus } from '../db/tables';
import type { Release } from './scheduled-action';
import { type ActionRow, selectActions, toScheduledAction } from './scheduled-action.repository';

// The SQL of releases: several articles' actions that run together.

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
