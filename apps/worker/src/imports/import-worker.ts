import type { WorkerConfig } from '@newsroom/config';
import type { Db } from '@newsroom/domain';
import { createFeedFetcher, DEFAULT_TIMEOUT_MS, type FeedFetcher } from '@newsroom/feeds';
import type { Registry } from '@newsroom/metrics';
import type { RedisClient } from '@newsroom/queue';
import {
  createFeedImportQueue,
  type FeedImportJob,
  type FeedImportJobData,
  type FeedImportJobName,
  type FeedImportQueue,
  feedImportQueueName,
  feedImportSchedulerId,
  feedRetryBackoffType,
} from '@newsroom/queue';
import { Worker } from 'bullmq';
import pino, { type Logger } from 'pino';
import { dispatcher } from './dispatcher';
import { feedRetryBackoff } from './feed-retry-delay';
import { createHostSlots } from './host-slots';
import { createWorkerMetrics } from './import-metrics';
import { ignoreImports } from './import-observer';
import { keepImportSchedule, type ScheduleKeeper } from './schedule-keeper';
import { createSerialGate } from './serial-gate';

export interface ImportWorkerOptions {
  config: Pick<WorkerConfig, 'redis' | 'feeds' | 'import'> & Partial<Pick<WorkerConfig, 'webhooks'>>;
  db: Db;
  /** A 'worker' role connection (maxRetriesPerRequest null). Owned by the caller. */
  connection: RedisClient;
  /** Defaults to a safe fetcher built from config.feeds; a given one is not closed by close(). */
  fetcher?: FeedFetcher;
  logger?: Logger;
  /** Upsert the hourly job scheduler at start, and keep it there (default true; see schedule-keeper.ts). */
  schedule?: boolean;
  /** Registry to record the worker's metrics in (made by the composition root); none: nothing is measured. */
  metricsRegistry?: Registry;
  /** How long a fetch waits for a slot on its feed's host before its job is delayed (default 10 s), and that delay (about 10 s). */
  hostWaitMs?: number;
  hostRedelayMs?: number;
  /** Base delay of the retry backoff; defaults to the job's (30 s). Tests shorten it. */
  retryBaseDelayMs?: number;
  now?: () => Date;
}

export interface ImportWorker {
  worker: Worker<FeedImportJobData, unknown, FeedImportJobName>;
  queue: FeedImportQueue;
  /** Stops taking jobs, lets the active ones finish, then releases what the worker created. Idempotent. */
  close(): Promise<void>;
}

/**
 * Upserts the one job scheduler of the feed import. Upsert by a fixed id: every start of every
 * replica updates the same scheduler instead of adding one. No deduplication option in the
 * template (it stops a scheduler from repeating, bullmq#2954); the fan-out's job ids dedupe instead.
 */
export async function upsertImportScheduler(queue: FeedImportQueue, pattern: string): Promise<void> {
  await queue.upsertJobScheduler(
    feedImportSchedulerId,
    { pattern, tz: 'UTC' },
    {
      name: 'fan-out-feeds',
      data: {},
      opts: {
        attempts: 3,
        backoff: { type: 'exponential', delay: 5_000 },
        removeOnComplete: { count: 48 },
        removeOnFail: { count: 48 },
      },
    },
  );
}

/** How long a publisher's fetch slot is leased: longer than a job runs (20 s fetch, then parse and import). */
const publisherLeaseMs = 2 * 60_000;

/** The API request that asked for a job, as a log field (manual fetches carry it). */
function requestIdOf(job: { data?: unknown } | undefined): { requestId?: string } {
  const data = job?.data as { requestId?: unknown } | undefined;
  return typeof data?.requestId === 'string' ? { requestId: data.requestId } : {};
}

/**
 * The feed-import worker: schedules the hourly fan-out and processes fan-out and fetch jobs with
 * `config.import.concurrency` jobs at a time. Several can run against one queue (replicas, tests).
 */
export async function createImportWorker(options: ImportWorkerOptions): Promise<ImportWorker> {
  const { config, db, connection } = options;
  const logger = options.logger ?? pino({ level: 'silent' });
  const fetcher =
    options.fetcher ??
    createFeedFetcher({
      allowPrivateAddresses: config.feeds.allowPrivateAddresses,
      userAgent: config.feeds.userAgent,
    });
  const queue = createFeedImportQueue({ connection, prefix: config.redis.queuePrefix });
  let scheduleKeeper: ScheduleKeeper | undefined;
  if (options.schedule !== false) {
    await upsertImportScheduler(queue, config.import.schedule);
    scheduleKeeper = keepImportSchedule({
      queue,
      connection,
      restore: () => upsertImportScheduler(queue, config.import.schedule),
      intervalMs: config.import.scheduleCheckMs,
      logger,
    });
  }
  const metrics =
    options.metricsRegistry &&
    createWorkerMetrics(options.metricsRegistry, {
      db,
      queue,
      onError: (error) => logger.warn({ err: error }, 'metrics: could not read the queue counts'),
    });

  const handle = dispatcher({
    db,
    queue,
    fetcher,
    allowPrivateImages: config.feeds.allowPrivateAddresses,
    logger,
    bigFeedGate: createSerialGate(),
    hostSlots: createHostSlots({
      connection,
      prefix: config.redis.queuePrefix,
      perHost: config.import.fetchesPerHost,
      // Longer than a fetch can last (its deadline), so a live fetch never loses its slot.
      leaseMs: DEFAULT_TIMEOUT_MS + 10_000,
    }),
    publisherSlots: createHostSlots({
      connection,
      prefix: config.redis.queuePrefix,
      namespace: 'feed-publisher',
      perHost: config.import.fetchesPerPublisher,
      // Held for the whole job (download, parse, import); released when it ends. A crashed worker's lease
      // frees itself after this, delaying only that publisher's next fetch.
      leaseMs: publisherLeaseMs,
    }),
    hostWaitMs: options.hostWaitMs ?? 10_000,
    hostRedelayMs: options.hostRedelayMs ?? 10_000,
    metrics: metrics?.observer ?? ignoreImports,
    ...(config.webhooks ? { feedFailedAfter: config.webhooks.feedFailedAfter } : {}),
    now: options.now ?? (() => new Date()),
  });
  const worker = new Worker<FeedImportJobData, unknown, FeedImportJobName>(
    feedImportQueueName,
    (job, token) => handle(job as FeedImportJob, token),
    {
      connection,
      prefix: config.redis.queuePrefix,
      concurrency: config.import.concurrency,
      // A killed worker's active jobs keep their lock until it expires; then the stalled-job check of
      // any live worker moves them back to waiting (once: maxStalledCount 1), so none stays active.
      lockDuration: config.import.lockMs,
      stalledInterval: config.import.lockMs,
      settings: {
        backoffStrategy: (attemptsMade, type, error, job) =>
          type === feedRetryBackoffType
            ? feedRetryBackoff(options.retryBaseDelayMs)(attemptsMade, type, error, job)
            : -1,
      },
    },
  );
  worker.on('error', (error) => logger.error({ err: error }, 'worker error'));
  worker.on('failed', (job, error) => {
    // `job`, not `name`: the logger's own `name` ('worker') must stay the only one on a line.
    logger.warn(
      {
        jobId: job?.id,
        job: job?.name,
        ...requestIdOf(job),
        attemptsMade: job?.attemptsMade,
        err: error.message,
      },
      'job failed',
    );
    // BullMQ sets finishedOn only when the job fails for good (no retry left, or unrecoverable).
    if (job) metrics?.jobFinished(job.name, job.finishedOn ? 'failed' : 'retried');
  });
  worker.on('completed', (job, result) => {
    logger.debug({ jobId: job.id, job: job.name, ...requestIdOf(job), result }, 'job done');
    metrics?.jobFinished(job.name, 'completed');
  });

  let closing: Promise<void> | undefined;
  return {
    worker,
    queue,
    close() {
      // Idempotent: a second SIGTERM (or a test's cleanup) waits for the same close.
      closing ??= (async () => {
        scheduleKeeper?.stop();
        await worker.close();
        await queue.close();
        if (!options.fetcher) await fetcher.close();
      })();
      return closing;
    },
  };
}
