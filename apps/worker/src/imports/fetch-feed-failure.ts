import { feedGoneError, markFeedGone, recordFeedFailureWithWebhook } from '@newsroom/domain';
import { FeedError } from '@newsroom/feeds';
import type { FeedImportJob } from '@newsroom/queue';
import { UnrecoverableError } from 'bullmq';
import type { JobDeps } from './job-deps';

// How a fetch-feed job ends when its feed fails: what BullMQ is told (retry or not) and what the publisher records.

/** A failure worth retrying (timeout, 5xx, 429, network); carries the server's Retry-After if any. */
export class TransientFeedError extends Error {
  override readonly name = 'TransientFeedError';
  constructor(
    message: string,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
  }
}

const describe = (error: FeedError) => `${error.code}: ${error.message}`;

/**
 * The server answered 410 Gone: the feed is marked gone (the hourly run stops fetching it, the
 * publisher and administrators see why) and the job fails for good.
 */
export async function feedGone(
  job: FeedImportJob<'fetch-feed'>,
  deps: JobDeps,
  error: FeedError,
): Promise<never> {
  deps.metrics.feedError(error.code);
  await markFeedGone(deps.db, job.data.publisherId, deps.now());
  deps.logger.warn({ jobId: job.id, publisherId: job.data.publisherId }, 'feed gone (410): no longer polled');
  throw new UnrecoverableError(feedGoneError);
}

/**
 * Turns a FeedError into what BullMQ should see (UnrecoverableError for permanent failures, else a
 * retryable TransientFeedError), recording it on the publisher when the job gives up. Other errors
 * are rethrown as they are.
 */
export async function failFeedJob(
  job: FeedImportJob<'fetch-feed'>,
  deps: JobDeps,
  error: unknown,
): Promise<never> {
  if (!(error instanceof FeedError)) throw error;
  deps.metrics.feedError(error.code);
  const givingUp = error.permanent || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  if (givingUp) {
    const { paused } = await recordFeedFailureWithWebhook(
      deps.db,
      job.data.publisherId,
      describe(error),
      deps.feedFailedAfter ?? 5,
      deps.now(),
    );
    if (paused) {
      deps.logger.warn(
        { jobId: job.id, publisherId: job.data.publisherId, code: error.code },
        'feed paused after repeated failures',
      );
    }
  }
  if (error.permanent) throw new UnrecoverableError(describe(error));
  throw new TransientFeedError(describe(error), error.retryAfterMs);
}
