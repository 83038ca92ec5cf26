import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createTestDatabase,
  entryPointCwd,
  type PrivateRedis,
  startPrivateRedis,
  tsxLoader,
} from '@newsroom/test-support';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { workerProcessEnv } from './support/worker-harness';

// The scheduler under chaos, with the worker run as production runs it (main.ts, configured by env only), on
// this file's database and a redis-server of its own: everything down over a due time, a worker SIGKILLed in
// the middle of a batch (its transaction holds claimed rows), Redis restarted empty. Postgres is the only
// record, so every action runs, exactly once, and the record says how late.

vi.setConfig({ testTimeout: 120_000 });

const root = resolve(import.meta.dirname, '../../..');
const { db, url, destroy } = await createTestDatabase();
const databaseName = new URL(url).pathname.slice(1);
const redis: PrivateRedis = await startPrivateRedis();
const workers: ChildProcess[] = [];
afterAll(async () => {
  for (const worker of workers) {
    if (worker.exitCode === null && worker.signalCode === null) {
      worker.kill('SIGKILL');
      await once(worker, 'exit');
    }
  }
  await redis.stop();
  await destroy();
});

function startWorker(): { process: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', tsxLoader, resolve(root, 'apps/worker/src/main.ts')], {
    cwd: entryPointCwd,
    env: workerProcessEnv(url, { url: redis.url, prefix: 'chaos' }, { SCHEDULER_POLL_MS: '200' }),
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  workers.push(child);
  return { process: child, output: () => output };
}

async function stop(worker: ChildProcess, signal: NodeJS.Signals) {
  worker.kill(signal);
  await once(worker, 'exit');
}

/** Polls `check` every 100 ms until it returns true; fails after `boundMs` with `what`. */
async function within(boundMs: number, what: () => string, check: () => Promise<boolean>) {
  for (const deadline = Date.now() + boundMs; Date.now() < deadline; await sleep(100)) {
    if (await check()) return;
  }
  throw new Error(`${what()} not within ${boundMs} ms`);
}

let batch = 0;
/** `count` drafts, each with a publish due at `dueAt`; returns the article ids in claim order. */
async function scheduleDrafts(count: number, dueAt: Date): Promise<string[]> {
  batch++;
  const articles = await db
    .insertInto('articles')
    .values(
      Array.from({ length: count }, (_, i) => ({
        title: `Chaos ${batch}-${i}`,
        slug: `chaos-${batch}-${i}`,
        status: 'draft' as const,
        tags: [],
      })),
    )
    .returning('id')
    .execute();
  const actions = await db
    .insertInto('scheduled_actions')
    .values(
      articles.map((a) => ({ article_id: a.id, kind: 'publish' as const, due_at: dueAt, created_by: null })),
    )
    .returning(['id', 'article_id'])
    .execute();
  return actions.sort((a, b) => (a.id < b.id ? -1 : 1)).map((a) => a.article_id);
}

const outcome = async (ids: string[]) => {
  const { rows } = await sql<{ done: string; published: string; outbox: string; min_late: string | null }>`
    select (select count(*) from scheduled_actions where article_id = any(${ids}::uuid[]) and status = 'done')::text as done,
           (select count(*) from articles where id = any(${ids}::uuid[]) and status = 'published')::text as published,
           (select count(*) from article_changes where article_id = any(${ids}::uuid[]))::text as outbox,
           (select min(lateness_ms) from scheduled_actions where article_id = any(${ids}::uuid[]))::text as min_late`.execute(
    db,
  );
  return rows[0] as { done: string; published: string; outbox: string; min_late: string | null };
};
const allDone = (ids: string[]) => async () => Number((await outcome(ids)).done) === ids.length;

describe('the scheduler under chaos', () => {
  it('runs at start-up what fell due while everything was down, and records how late', async () => {
    const ids = await scheduleDrafts(40, new Date(Date.now() + 300));
    // Nothing runs: no worker, no API. The due time passes.
    await sleep(1_500);
    const worker = startWorker();
    await within(60_000, () => `the overdue actions run (output: ${worker.output()})`, allDone(ids));
    const result = await outcome(ids);
    expect(result).toMatchObject({ done: '40', published: '40', outbox: '40' });
    expect(Number(result.min_late)).toBeGreaterThanOrEqual(1_000);
    await stop(worker.process, 'SIGTERM');
  });

  it('loses nothing and runs nothing twice when a worker is SIGKILLed mid-batch', async () => {
    const ids = await scheduleDrafts(250, new Date());
    // Hold the first article of the first batch: the worker's batch transaction (rows claimed, some articles
    // already published in it) blocks there until it is killed.
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('select id from articles where id = $1 for update', [ids[5]]);
    const first = startWorker();
    await within(
      60_000,
      () => `the first worker blocked mid-batch (output: ${first.output()})`,
      async () => {
        const { rows } = await sql<{ n: string }>`
          select count(*)::text as n from pg_stat_activity
           where datname = ${databaseName} and application_name = 'newsroom-worker' and wait_event_type = 'Lock'`.execute(
          db,
        );
        return rows[0]?.n === '1';
      },
    );
    await stop(first.process, 'SIGKILL');
    expect(first.process.signalCode).toBe('SIGKILL');
    await blocker.query('rollback');
    await blocker.end();
    // Nothing of the killed batch committed.
    expect(await outcome(ids)).toMatchObject({ done: '0', published: '0', outbox: '0' });

    const second = startWorker();
    await within(
      60_000,
      () => `all actions run by the second worker (output: ${second.output()})`,
      allDone(ids),
    );
    expect(await outcome(ids)).toMatchObject({ done: '250', published: '250', outbox: '250' });
    await stop(second.process, 'SIGTERM');
  });

  it('does not depend on Redis: a flush and an empty restart lose nothing', async () => {
    const worker = startWorker();
    const ids = await scheduleDrafts(30, new Date(Date.now() + 1_000));
    await redis.restart();
    await within(
      60_000,
      () => `the actions run after Redis restarted empty (output: ${worker.output()})`,
      allDone(ids),
    );
    expect(await outcome(ids)).toMatchObject({ done: '30', published: '30', outbox: '30' });
    expect(worker.process.exitCode).toBeNull();
    await stop(worker.process, 'SIGTERM');
  });
});
