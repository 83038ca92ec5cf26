import { type DefaultJobOptions, type Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  type FeedImportJobData,
  type FeedImportJobName,
  type FeedImportJobs,
  feedImportQueueName,
} from './feed-import.contract';
import { manualFetchDeduplicationId, scheduledFetchJobId } from './job-ids';

export type FeedImportQueue = Queue<FeedImportJobData, unknown, FeedImportJobName>;
export type FeedImportJob<N extends FeedImportJobName = FeedImportJobName> = Job<
  FeedImportJobs[N],
  unknown,
  N
>;

/** Name of the custom backoff strategy the worker registers (exponential, honouring Retry-After). */
export const feedRetryBackoffType = 'feed-retry';

const hour = 3600;

/**
 * Options every feed-import job gets unless it says otherwise.
 * - 4 attempts with the worker's backoff (30 s, 60 s, 120 s by default; a 429's Retry-After wins).
 * - Completed jobs are kept 2 hours: longer than one hour slot, so their ids still deduplicate a
 *   repeated fan-out in the same slot; then trimmed. Failed jobs are kept a week (at most 5,000)
 *   for the dashboard.
 */
export const feedImportJobOptions: DefaultJobOptions = {
  attempts: 4,
  backoff: { type: feedRetryBackoffType, delay: 30_000 },
  removeOnComplete: { age: 2 * hour },
  removeOnFail: { age: 7 * 24 * hour, count: 5_000 },
};

export interface FeedImportQueueOptions {
  /** An existing ioredis connection (the API's fail-fast producer, or the worker's). Not closed by queue.close(). */
  connection: Redis;
  /** Key prefix of every queue key: config.redis.queuePrefix (tests: their own prefix). */
  prefix: string;
  /** Told about connection errors (an unheard 'error' event would be printed by BullMQ). */
  onError?: (error: Error) => void;
}

/** The producer side of the feed-import queue. The caller owns it and must close() it. */
export function createFeedImportQueue({
  connection,
  prefix,
  onError,
}: FeedImportQueueOptions): FeedImportQueue {
  const queue = new Queue<FeedImportJobData, unknown, FeedImportJobName>(feedImportQueueName, {
    connection,
    prefix,
    defaultJobOptions: feedImportJobOptions,
  });
  queue.on('error', onError ?? (() => {}));
  return queue;
}

/**
 * Enqueues one scheduled fetch per publisher for an hour slot, atomically (addBulk is all or none).
 * Ids already present (an earlier fan-out in the same slot) are ignored by BullMQ.
 */
export async function enqueueScheduledFetches(
  queue: FeedImportQueue,
  publisherIds: readonly string[],
  slot: string,
): Promise<void> {
  if (publisherIds.length === 0) return;
  await queue.addBulk(
    publisherIds.map((publisherId) => ({
      name: 'fetch-feed' as const,
      data: { publisherId, trigger: 'schedule' as const },
      opts: { jobId: scheduledFetchJobId(publisherId, slot) },
    })),
  );
}

/**
 * Enqueues a fetch of one publisher now. While an earlier manual fetch of the same publisher is
 * still waiting or running, returns that job's id instead of adding another (repeated clicks do
 * not pile up; the job keeps the first request's id); once it has finished, a new one is added.
 */
export async function enqueueManualFetch(
  queue: FeedImportQueue,
  publisherId: string,
  requestId?: string,
): Promise<string> {
  const job = await queue.add(
    'fetch-feed',
    { publisherId, trigger: 'manual', ...(requestId ? { requestId } : {}) },
    { deduplication: { id: manualFetchDeduplicationId(publisherId) } },
  );
  if (!job.id) throw new Error('BullMQ returned a job without an id');
  return job.id;
}
