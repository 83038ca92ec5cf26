import { type DefaultJobOptions, type Job, Queue } from 'bullmq';
import {
  type FeedImportJobData,
  type FeedImportJobName,
  type FeedImportJobs,
  type FetchFeedJobData,
  type FetchFeedOutcome,
  feedImportQueueName,
} from './feed-import.contract';
import { firstFetchJobId, publisherFetchDeduplicationId, scheduledFetchJobId } from './job-ids';
import type { RedisClient } from './redis-connection';

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
 * - Completed jobs are kept 7 days, at most the newest 20,000 (about 1 KB each in Redis: 865 B hash + 163 B in the completed set, measured), so an
 *   administrator finds a publisher's recent fetches in the queue dashboard and can retry one; with
 *   more than ~120 publishers the count cap trims first (500 publishers: the last 40 hours). Kept
 *   jobs also make their ids deduplicate a repeated fan-out in the same slot. Failed jobs: a week,
 *   at most 5,000.
 */
export const feedImportJobOptions: DefaultJobOptions = {
  attempts: 4,
  backoff: { type: feedRetryBackoffType, delay: 30_000 },
  removeOnComplete: { age: 7 * 24 * hour, count: 20_000 },
  removeOnFail: { age: 7 * 24 * hour, count: 5_000 },
};

/** A publisher as the jobs name it: its id, and its name for people reading the queue dashboard. */
export interface PublisherRef {
  id: string;
  name: string;
}

export interface FeedImportQueueOptions {
  /** An existing ioredis connection (the API's fail-fast producer, or the worker's). Not closed by queue.close(). */
  connection: RedisClient;
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
  publishers: readonly PublisherRef[],
  slot: string,
): Promise<void> {
  if (publishers.length === 0) return;
  await queue.addBulk(
    publishers.map(({ id, name }) => ({
      name: 'fetch-feed' as const,
      data: { publisherId: id, publisherName: name, trigger: 'schedule' as const },
      opts: { jobId: scheduledFetchJobId(id, slot) },
    })),
  );
}

/**
 * Enqueues the first fetch of a publisher that just became importable with `feedUrl` (approved, or a
 * new feed URL saved) and returns its job id. The id is deterministic (firstFetchJobId), so a repeated
 * call adds nothing: BullMQ ignores an add() whose jobId exists.
 * At most one unscheduled fetch per publisher is queued or running (publisherFetchDeduplicationId): while
 * one waits, a newer address joins it (the job reads the address when it runs, so it fetches the newest);
 * while one runs, the newest request is kept and queued when it finishes (BullMQ's keepLastIfActive), so a
 * flood of new addresses makes one fetch at a time, never one per address.
 */
export async function enqueueFirstFetch(
  queue: FeedImportQueue,
  publisher: PublisherRef & { feedUrl: string },
  requestId?: string,
): Promise<string> {
  const jobId = firstFetchJobId(publisher.id, publisher.feedUrl);
  const job = await queue.add(
    'fetch-feed',
    {
      publisherId: publisher.id,
      publisherName: publisher.name,
      trigger: 'first-import',
      ...(requestId ? { requestId } : {}),
    },
    { jobId, deduplication: { id: publisherFetchDeduplicationId(publisher.id), keepLastIfActive: true } },
  );
  return job.id ?? jobId;
}

/** A manual fetch asked for within this long after the previous one finished joins it instead. */
export const manualFetchJoinWindowMs = 60_000;

const unfinished = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children', 'active']);

/**
 * Enqueues a fetch of one publisher now and returns its job id. It joins the previous manual fetch
 * (same id) while that one is still waiting or running, or finished less than a minute ago, so
 * repeated clicks neither pile up nor hammer the feed (the job keeps the first request's `requestId`);
 * otherwise a new job is added.
 * The deduplication id (shared with first imports) makes concurrent calls agree on one job, and joins a
 * first import that is queued or running; the id of the last manual fetch is
 * kept beside the queue's keys for a day (on `client`, the queue's connection) to find it after it
 * finished.
 */
export async function enqueueManualFetch(
  queue: FeedImportQueue,
  client: RedisClient,
  publisher: PublisherRef,
  now: Date = new Date(),
  requestId?: string,
): Promise<string> {
  const lastKey = queue.toKey(`manual-fetch-last:${publisher.id}`);
  const lastId = await client.get(lastKey);
  const last = lastId ? await queue.getJob(lastId) : undefined;
  if (last?.id) {
    const state = await last.getState();
    if (unfinished.has(state)) return last.id;
    const finishedRecently = last.finishedOn && now.getTime() - last.finishedOn < manualFetchJoinWindowMs;
    if ((state === 'completed' || state === 'failed') && finishedRecently) return last.id;
  }
  const job = await queue.add(
    'fetch-feed',
    {
      publisherId: publisher.id,
      publisherName: publisher.name,
      trigger: 'manual',
      ...(requestId ? { requestId } : {}),
    },
    { deduplication: { id: publisherFetchDeduplicationId(publisher.id) } },
  );
  if (!job.id) throw new Error('BullMQ returned a job without an id');
  await client.set(lastKey, job.id, 'EX', 24 * hour);
  return job.id;
}

/** Where a fetch job stands, as the dashboard's "Import now" shows it. */
export interface FetchJobStatus {
  state: 'waiting' | 'active' | 'completed' | 'failed';
  /** The job's return value once completed. */
  outcome: FetchFeedOutcome | undefined;
  /** Why it failed ("CODE: message"), once it gave up. */
  failedReason: string | undefined;
}

/** The state of `publisherId`'s fetch job `jobId`, or undefined when there is no such job (or it was trimmed). */
export async function readFetchJobStatus(
  queue: FeedImportQueue,
  publisherId: string,
  jobId: string,
): Promise<FetchJobStatus | undefined> {
  // State first, then the job: a job read before it finished would carry no result yet.
  const state = await queue.getJobState(jobId);
  if (state === 'unknown') return undefined;
  const job = await queue.getJob(jobId);
  if (job?.name !== 'fetch-feed' || (job.data as FetchFeedJobData).publisherId !== publisherId) {
    return undefined;
  }
  return {
    state: state === 'completed' || state === 'failed' || state === 'active' ? state : 'waiting',
    outcome: state === 'completed' ? (job.returnvalue as FetchFeedOutcome) : undefined,
    failedReason: state === 'failed' ? job.failedReason : undefined,
  };
}
