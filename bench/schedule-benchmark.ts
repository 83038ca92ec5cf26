import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startPrivateRedis } from '@newsroom/test-support';
import { sql } from 'kysely';
import { createBenchDatabase } from './client/seed';
import { type Db, startSchedulerProbe } from './schedule-probe';

// pnpm bench:schedule: scheduled publishing on this machine, with the worker run as production runs it.
//  1. 10,000 publishes due uniformly within one minute: lateness (ran_at - due_at) p50 / p99 / max.
//  2. The same again, the worker SIGKILLed halfway through the minute and restarted 3 s later: everything done,
//     and lateness counted from the later of the due time and the restart.
//  3. The idle cost: transactions per minute of the scheduler alone with nothing due (pg_stat_database).

const serverUrl = process.env.BENCH_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const count = Number(process.env.BENCH_ACTIONS ?? 10_000);
const windowMs = 60_000;
const root = resolve(import.meta.dirname, '..');
const tsx = resolve(root, 'node_modules/tsx/dist/loader.mjs');

const database = await createBenchDatabase(serverUrl);
const { db } = database;
const redis = await startPrivateRedis();
const workers: ChildProcess[] = [];

function startWorker(): ChildProcess {
  const child = spawn(process.execPath, ['--import', tsx, resolve(root, 'apps/worker/src/main.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: 'bench-schedule',
      IMPORT_SCHEDULE: '0 0 1 1 *',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  workers.push(child);
  return child;
}

/**
 * `count` drafts, then their publishes due uniformly over one minute from 3 s after the articles exist (the
 * articles' insert is slow on a loaded machine; the actions' insert is one statement). Returns the start.
 */
async function seed(label: string): Promise<number> {
  const ids = await sql<{ id: string }>`
    insert into articles (title, slug, status, tags)
    select ${label} || ' ' || g, ${label} || '-' || g, 'draft', '{}' from generate_series(1, ${count}) g
    returning id`.execute(db);
  const start = Date.now() + 3_000;
  await sql`
    insert into scheduled_actions (article_id, kind, due_at)
    select id, 'publish', to_timestamp((${start}::float8 + (row_number() over () - 1) * ${windowMs / count}::float8) / 1000)
      from unnest(${ids.rows.map((r) => r.id)}::uuid[]) as t(id)`.execute(db);
  if (Date.now() > start) throw new Error(`${label}: inserting the actions took past their first due time`);
  return start;
}

async function waitDone(label: string, boundMs: number): Promise<void> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const { rows } = await sql<{ left: string }>`
      select count(*)::text as left from scheduled_actions sa join articles a on a.id = sa.article_id
       where a.slug like ${`${label}-%`} and sa.status = 'scheduled'`.execute(db);
    if (rows[0]?.left === '0') return;
    if (Date.now() > deadline)
      throw new Error(`${label}: ${rows[0]?.left} actions not run within ${boundMs} ms`);
    await sleep(500);
  }
}

async function lateness(label: string, from: 'due' | number) {
  const { rows } = await sql<{ p50: number; p99: number; max: number; done: string; failed: string }>`
    with l as (
      select sa.status,
             extract(epoch from (sa.ran_at - ${from === 'due' ? sql`sa.due_at` : sql`greatest(sa.due_at, to_timestamp(${from}::float8 / 1000))`})) * 1000 as ms
        from scheduled_actions sa join articles a on a.id = sa.article_id where a.slug like ${`${label}-%`})
    select percentile_cont(0.5) within group (order by ms) as p50,
           percentile_cont(0.99) within group (order by ms) as p99, max(ms) as max,
           count(*) filter (where status = 'done')::text as done, count(*) filter (where status = 'failed')::text as failed
      from l`.execute(db);
  const r = rows[0] as { p50: number; p99: number; max: number; done: string; failed: string };
  return {
    p50: Math.round(r.p50),
    p99: Math.round(r.p99),
    max: Math.round(r.max),
    done: r.done,
    failed: r.failed,
  };
}

try {
  // 1. Steady.
  let worker = startWorker();
  await sleep(5_000);
  await seed('steady');
  await waitDone('steady', windowMs + 120_000);
  const steady = await lateness('steady', 'due');
  console.log(`steady: ${count} actions due within 60 s`, steady);

  // 2. Killed halfway.
  const killedStart = await seed('killed');
  await sleep(killedStart - Date.now() + windowMs / 2);
  worker.kill('SIGKILL');
  await once(worker, 'exit');
  await sleep(3_000);
  const restartAt = Date.now();
  worker = startWorker();
  await waitDone('killed', windowMs + 120_000);
  const killedRaw = await lateness('killed', 'due');
  const afterRestart = await lateness('killed', restartAt);
  console.log('killed at 30 s, restarted 3 s later: lateness from due', killedRaw);
  console.log('  lateness from max(due, restart)', afterRestart);
  const { rows: boot } = await sql<{ ms: number }>`
    select extract(epoch from (min(ran_at) - to_timestamp(${restartAt}::float8 / 1000))) * 1000 as ms
      from scheduled_actions where ran_at >= to_timestamp(${restartAt}::float8 / 1000)`.execute(db);
  console.log(
    `  the restarted worker ran its first action ${Math.round(boot[0]?.ms ?? Number.NaN)} ms after its spawn (boot)`,
  );
  worker.kill('SIGTERM');
  await once(worker, 'exit');

  // 3. Idle.
  const idle = await startSchedulerProbe(db as Db, database.url, 30_000);
  console.log(`idle scheduler: ${idle.perMinute} transactions per minute (${idle.statement})`);
} finally {
  for (const worker of workers)
    if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
  await redis.stop();
  await database.drop();
}
