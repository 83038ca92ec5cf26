import { setTimeout as sleep } from 'node:timers/promises';
import { createDb, type Db } from '@newsroom/domain';
import { sql } from 'kysely';
import { startScheduler } from '../apps/worker/src/schedule/scheduler';

export type { Db };

/**
 * The scheduler alone (default 1 s poll) on its own pool for `ms` with nothing due: the database's committed
 * transactions in that time (pg_stat_database of the bench database; nothing else runs there), per minute.
 */
export async function startSchedulerProbe(db: Db, url: string, ms: number) {
  const commits = async () => {
    await sql`select pg_stat_clear_snapshot()`.execute(db);
    await sql`select pg_stat_force_next_flush()`.execute(db).catch(() => {});
    const { rows } = await sql<{ n: string }>`
      select xact_commit::text as n from pg_stat_database where datname = current_database()`.execute(db);
    return Number(rows[0]?.n);
  };
  const own = createDb({ connectionString: url, max: 1 });
  const before = await commits();
  const scheduler = startScheduler({
    db: own,
    logger: { info: () => {}, error: () => {} } as never,
    pollMs: 1_000,
    batchSize: 100,
  });
  await sleep(ms);
  await scheduler.close();
  await own.destroy();
  await sleep(1_500); // stats are flushed by each backend at most once a second
  const after = await commits();
  // Minus the probe's own reads (3 statements each time).
  const transactions = after - before - 3;
  return {
    perMinute: Math.round((transactions * 60_000) / ms),
    statement: 'select least(min(due_at) ...) per turn',
  };
}
