import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../db/create-db';
import type { ScheduledActionKind } from '../db/tables';

// The worker's side of scheduled publishing: claiming due actions and releases, recording outcomes, the next due time.

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
