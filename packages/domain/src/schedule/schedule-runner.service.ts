import { sql } from 'kysely';
import { changeArticleStatus } from '../articles/article.service';
import { schedulerWrite } from '../articles/revisions/revision-write';
import type { Db, Tx } from '../db/create-db';
import { DomainError } from '../errors';
import type { Clock } from '../shared/clock';
import {
  type ActionOutcome,
  claimDueActions,
  claimDueRelease,
  type DueAction,
  findNextDueAt,
  recordActionOutcomes,
  recordReleaseOutcome,
} from './schedule-claims.repository';

// The scheduler's work, run by the worker (apps/worker/src/schedule): everything due is claimed with
// FOR UPDATE SKIP LOCKED and executed through the same domain function as a manual publish or unpublish, in
// the transaction that records the outcome, so the state change, its outbox row (change feed, webhook events)
// and its NOTIFY (cache invalidation) commit together with "done", or not at all.

/** What one pass did. */
export interface ScheduleRunResult {
  done: number;
  failed: number;
  releases: number;
}

/**
 * Runs one action with `changeArticleStatus`. A domain error (article deleted, transition not allowed, still
 * embargoed) is the action's failure; it is thrown before any write, so the transaction stays usable. Anything
 * else (the database) is thrown: the whole batch rolls back and is claimed again later.
 */
async function runAction(tx: Tx, action: DueAction, now: Date): Promise<string | null> {
  try {
    await changeArticleStatus(tx, action.articleId, action.kind, now, null, schedulerWrite);
    return null;
  } catch (error) {
    if (error instanceof DomainError) {
      return error.code === 'ARTICLE_NOT_FOUND' ? 'The article was deleted' : error.message;
    }
    throw error;
  }
}

/** One transaction: up to `batchSize` due lone actions. Returns how many were claimed. */
async function runActionBatch(
  db: Db,
  clock: Clock,
  batchSize: number,
  result: ScheduleRunResult,
  lane: { index: number; of: number },
) {
  return db.transaction().execute(async (tx) => {
    const due = await claimDueActions(tx, clock.now(), batchSize, lane);
    const outcomes: ActionOutcome[] = [];
    for (const action of due) {
      const failure = await runAction(tx, action, clock.now());
      outcomes.push({ id: action.id, status: failure === null ? 'done' : 'failed', failureReason: failure });
    }
    await recordActionOutcomes(tx, outcomes, clock.now());
    result.done += outcomes.filter((o) => o.status === 'done').length;
    result.failed += outcomes.filter((o) => o.status === 'failed').length;
    return due.length;
  });
}

/**
 * One transaction: one due release, all of its actions or none. The actions run inside a savepoint; when one
 * fails, the savepoint is rolled back (nothing of the release was ever visible) and every action is recorded
 * failed with the reason.
 */
async function runOneRelease(db: Db, clock: Clock, result: ScheduleRunResult): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const release = await claimDueRelease(tx, clock.now());
    if (!release) return false;
    await sql`savepoint release_actions`.execute(tx);
    let failure: string | null = null;
    for (const action of release.actions) {
      const reason = await runAction(tx, action, clock.now());
      if (reason !== null) {
        failure = `Release not run: ${action.kind} of article ${action.articleId} failed: ${reason}`;
        break;
      }
    }
    const status = failure === null ? 'done' : 'failed';
    await (failure === null
      ? sql`release savepoint release_actions`
      : sql`rollback to savepoint release_actions`
    ).execute(tx);
    const ranAt = clock.now();
    await recordActionOutcomes(
      tx,
      release.actions.map((action) => ({ id: action.id, status, failureReason: failure })),
      ranAt,
    );
    await recordReleaseOutcome(tx, release.id, { status, failureReason: failure }, ranAt);
    result.releases++;
    if (status === 'done') result.done += release.actions.length;
    else result.failed += release.actions.length;
    return true;
  });
}

/**
 * Runs everything due at `clock.now()`: releases (each in its transaction), then lone actions in batches of
 * `batchSize` (each batch one transaction), until nothing due is left. Safe to run from any number of
 * processes at once: each claim skips rows another holds, and a row is claimed only while `scheduled`.
 * `lanes` batches run at once, each over its own share of the articles (by hash), so one article's actions
 * still run one after the other, in due order.
 */
export async function runDueScheduledActions(
  db: Db,
  clock: Clock,
  options: { batchSize?: number; lanes?: number } = {},
): Promise<ScheduleRunResult> {
  const batchSize = options.batchSize ?? 100;
  const lanes = Math.max(1, options.lanes ?? 1);
  const result: ScheduleRunResult = { done: 0, failed: 0, releases: 0 };
  while (await runOneRelease(db, clock, result)) {}
  await Promise.all(
    Array.from({ length: lanes }, async (_, index) => {
      const lane = { index, of: lanes };
      while ((await runActionBatch(db, clock, batchSize, result, lane)) === batchSize) {}
    }),
  );
  return result;
}

/** When the next scheduled action or release is due (null: nothing scheduled). One indexed query. */
export async function nextScheduledDueAt(db: Db): Promise<Date | null> {
  return findNextDueAt(db);
}
