import {
  findPublisherFeedSettings,
  type ImportCounts,
  importFeedItems,
  isImportable,
  recordFeedFetchFailure,
} from '@newsroom/domain';
import { FeedError, readFeed } from '@newsroom/feeds';
import type { FeedImportJob } from '@newsroom/queue';
import { UnrecoverableError } from 'bullmq';
import type { JobDeps } from './job-deps';

export type FetchFeedResult = ImportCounts | { skipped: 'not-importable' };

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

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const describe = (error: FeedError) => `${error.code}: ${error.message}`;

/**
 * Fetches one publisher's feed and imports its new items. Permanent failures (404/410, not a feed,
 * refused address, invalid URL, too large) end the job at once with UnrecoverableError; transient
 * ones are retried with backoff. The failure is recorded on the publisher when the job gives up.
 */
export async function fetchFeedJob(
  job: FeedImportJob<'fetch-feed'>,
  deps: JobDeps,
): Promise<FetchFeedResult> {
  const { publisherId } = job.data;
  // Jobs can also be added by hand on the queue dashboard: refuse a malformed one for good.
  if (typeof publisherId !== 'string' || !uuidPattern.test(publisherId)) {
    throw new UnrecoverableError('fetch-feed needs data { "publisherId": "<publisher uuid>" }');
  }
  const publisher = await findPublisherFeedSettings(deps.db, publisherId);
  // Disabled, unapproved or deleted since the job was queued: nothing to do.
  if (!publisher || !isImportable(publisher) || !publisher.feedUrl) return { skipped: 'not-importable' };

  let feed: Awaited<ReturnType<typeof readFeed>>;
  try {
    feed = await readFeed(deps.fetcher, {
      url: publisher.feedUrl,
      etag: publisher.etag,
      lastModified: publisher.lastModified,
    });
  } catch (error) {
    if (!(error instanceof FeedError)) throw error;
    const givingUp = error.permanent || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (givingUp) await recordFeedFetchFailure(deps.db, publisherId, describe(error));
    if (error.permanent) throw new UnrecoverableError(describe(error));
    throw new TransientFeedError(describe(error), error.retryAfterMs);
  }
  return importFeedItems(deps.db, publisherId, feed, deps.now());
}
