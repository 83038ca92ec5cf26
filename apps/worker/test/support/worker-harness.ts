import { loadWorkerConfig, type WorkerConfig } from '@newsroom/config';
import type { Db } from '@newsroom/domain';
import { createFeedImportQueue, createRedisConnection, type FeedImportQueue } from '@newsroom/queue';
import { createTestDatabase, testRedis } from '@newsroom/test-support';
import type { Redis } from 'ioredis';
import {
  createImportWorker,
  type ImportWorker,
  type ImportWorkerOptions,
} from '../../src/imports/import-worker';

export interface WorkerHarness {
  db: Db;
  config: WorkerConfig;
  /** A producer-side queue on the same prefix, to add jobs and inspect them. */
  queue: FeedImportQueue;
  connection: Redis;
  /** Starts a worker like production does (createImportWorker); closed by close(). */
  startWorker(options?: Partial<ImportWorkerOptions>): Promise<ImportWorker>;
  close(): Promise<void>;
}

/**
 * A test file's own database and queue prefix, with workers built exactly like main.ts builds one.
 * `env` overrides configuration (FEED_ALLOW_PRIVATE_ADDRESSES is on unless overridden).
 */
export async function createWorkerHarness(env: Record<string, string> = {}): Promise<WorkerHarness> {
  const database = await createTestDatabase();
  const redis = testRedis();
  const config = loadWorkerConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: redis.prefix,
    FEED_ALLOW_PRIVATE_ADDRESSES: 'true',
    ...env,
  });
  const connection = createRedisConnection(config.redis.url, 'worker');
  const queue = createFeedImportQueue({ connection, prefix: config.redis.queuePrefix });
  const workers: ImportWorker[] = [];
  return {
    db: database.db,
    config,
    queue,
    connection,
    async startWorker(options = {}) {
      const worker = await createImportWorker({
        config,
        db: database.db,
        connection,
        schedule: false,
        retryBaseDelayMs: 50,
        ...options,
      });
      workers.push(worker);
      return worker;
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
      await database.destroy();
    },
  };
}

export interface NewPublisher {
  name?: string;
  feedUrl?: string | null;
  autoApprove?: boolean;
  approved?: boolean;
  defaultTags?: string[];
}

export async function insertPublisher(db: Db, values: NewPublisher = {}): Promise<string> {
  const { id } = await db
    .insertInto('publishers')
    .values({
      name: values.name ?? 'Daily Planet',
      feed_url: values.feedUrl ?? null,
      approved: values.approved ?? true,
      auto_approve: values.autoApprove ?? true,
      default_tags: values.defaultTags ?? [],
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export interface FinishedJob {
  state: 'completed' | 'failed';
  returnvalue: unknown;
  failedReason: string | undefined;
  attemptsMade: number;
}

/** Waits until a job has completed or failed for good (retries included). */
export async function waitForJob(
  queue: FeedImportQueue,
  jobId: string,
  timeoutMs = 15_000,
): Promise<FinishedJob> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // State first, then the job: a job read before it finished would carry no result yet.
    const state = await queue.getJobState(jobId);
    if (state === 'completed' || state === 'failed') {
      const job = await queue.getJob(jobId);
      if (!job) throw new Error(`job ${jobId} disappeared`);
      return {
        state,
        returnvalue: job.returnvalue,
        failedReason: job.failedReason,
        attemptsMade: job.attemptsMade,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${jobId} did not finish within ${timeoutMs} ms`);
}

/** Adds a fetch of one publisher (as a manual re-trigger would) and waits for its outcome. */
export async function runFetch(queue: FeedImportQueue, publisherId: string): Promise<FinishedJob> {
  const job = await queue.add('fetch-feed', { publisherId, trigger: 'manual' });
  return waitForJob(queue, job.id as string);
}

/** Waits until nothing is waiting, active or due in the queue (the scheduler's next run aside). */
export async function waitForIdleQueue(queue: FeedImportQueue, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // One atomic count of every unfinished state (two reads would race a job moving between states, e.g. a
    // re-delayed job becoming waiting), less the scheduler's own delayed job(s), which are always there.
    const counts = await queue.getJobCounts(
      'waiting',
      'active',
      'prioritized',
      'waiting-children',
      'delayed',
    );
    const unfinished = Object.values(counts).reduce((sum, n) => sum + n, 0);
    const scheduled = (await queue.getJobs(['delayed'])).filter((job) => job.repeatJobKey).length;
    if (unfinished - scheduled === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`queue not idle within ${timeoutMs} ms`);
}

/**
 * The environment of a worker started as its own process in a test: only what it needs (PATH), quiet logs,
 * the test's database and Redis prefix, loopback feeds allowed, no scheduled run; `more` adds or overrides.
 */
export function workerProcessEnv(
  databaseUrl: string,
  redis: { url: string; prefix: string },
  more: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: redis.prefix,
    FEED_ALLOW_PRIVATE_ADDRESSES: 'true',
    IMPORT_SCHEDULE: '0 0 1 1 *',
    ...more,
  };
}
