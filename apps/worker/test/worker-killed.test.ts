import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createFeedImportQueue, createRedisConnection } from '@newsroom/queue';
import {
  createTestDatabase,
  entryPointCwd,
  generatedFeed,
  startStreamingFeedServer,
  testRedis,
  tsxLoader,
} from '@newsroom/test-support';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { insertPublisher, workerProcessEnv } from './support/worker-harness';

// A worker process killed with SIGKILL in the middle of a fetch job, then another one started:
// BullMQ's stalled-job handling must give the job to the new worker, and the import must end with
// every item exactly once. The worker runs as production runs it (main.ts, configured by env only).

vi.setConfig({ testTimeout: 120_000 });

const root = resolve(import.meta.dirname, '../../..');
const itemCount = 300;
const feed = generatedFeed(itemCount, 2 * 1024, 'Killed mid-import');
// Every request gets the headers and the first 64 KiB, then waits for release(): the first worker
// is killed while it reads the body.
const server = await startStreamingFeedServer(feed, { hold: 64 * 1024 });
const { db, url, destroy } = await createTestDatabase();
const redis = testRedis();
const connection = createRedisConnection(redis.url, 'worker');
const queue = createFeedImportQueue({ connection, prefix: redis.prefix });
const workers: ChildProcess[] = [];
afterAll(async () => {
  for (const worker of workers) {
    if (worker.exitCode === null && worker.signalCode === null) {
      worker.kill('SIGKILL');
      await once(worker, 'exit');
    }
  }
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
  await server.close();
  await destroy();
});

function startWorker(): { process: ChildProcess; output: () => string } {
  let output = '';
  // node itself with tsx's loader, not the tsx CLI: the CLI runs node as a child, and a SIGKILL to the
  // CLI would leave that child (the real worker) running.
  const child = spawn(process.execPath, ['--import', tsxLoader, resolve(root, 'apps/worker/src/main.ts')], {
    cwd: entryPointCwd,
    // A killed worker's job is taken over within ~2 x 2 s instead of ~2 x 30 s.
    env: workerProcessEnv(url, redis, { WORKER_LOCK_SECONDS: '2' }),
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  workers.push(child);
  return { process: child, output: () => output };
}

/** Polls `check` every 100 ms until it returns true; fails after `boundMs` with `what`. */
async function within(boundMs: number, what: string, check: () => Promise<boolean>) {
  for (const deadline = Date.now() + boundMs; Date.now() < deadline; await sleep(100)) {
    if (await check()) return;
  }
  throw new Error(`${what} not within ${boundMs} ms`);
}

const articleCounts = () =>
  db
    .selectFrom('articles')
    .select([
      (eb) => eb.fn.countAll<string>().as('rows'),
      (eb) => eb.fn.count<string>('rss_feed_guid').distinct().as('guids'),
    ])
    .executeTakeFirstOrThrow();

describe('a worker killed mid-import, then restarted', () => {
  it('leaves no job active forever, loses no item and duplicates none', async () => {
    const publisherId = await insertPublisher(db, { name: 'Killed', feedUrl: server.url('/feed.rss') });
    const first = startWorker();
    const job = await queue.add('fetch-feed', { publisherId, trigger: 'manual' });
    // The first worker is reading the body (the server holds the rest of it): the job is active.
    await within(60_000, `the first worker fetching (output: ${first.output()})`, async () => {
      const state = await queue.getJobState(job.id as string);
      return server.responses.length > 0 && state === 'active';
    });

    first.process.kill('SIGKILL');
    await once(first.process, 'exit');
    expect(first.process.signalCode).toBe('SIGKILL');
    // Nothing finishes the job now: it is still active, with a lock nobody renews.
    expect(await queue.getJobState(job.id as string)).toBe('active');
    expect(Number((await articleCounts()).rows)).toBe(0);

    server.release();
    const second = startWorker();
    await within(60_000, `the job completed by the second worker (output: ${second.output()})`, async () =>
      ['completed', 'failed'].includes(await queue.getJobState(job.id as string)),
    );
    expect(await queue.getJobState(job.id as string)).toBe('completed');
    expect(await articleCounts()).toEqual({ rows: String(itemCount), guids: String(itemCount) });
    expect(await queue.getJobCounts('active', 'waiting', 'failed')).toEqual({
      active: 0,
      waiting: 0,
      failed: 0,
    });
    // The second worker fetched the feed again, from the start, and read all of it.
    expect(server.responses.length).toBeGreaterThanOrEqual(2);
    expect(server.responses.at(-1)?.finished).toBe(true);

    second.process.kill('SIGTERM');
    const [code] = await once(second.process, 'exit');
    expect(code).toBe(0);
  });
});
