import { createHash } from 'node:crypto';
import {
  findPublisherFeedSettings,
  type ImportCounts,
  importFeedItems,
  isImportable,
  nextFetchAfter,
  notePermanentRedirect,
  recordUnchangedFeed,
} from '@newsroom/domain';
import { FeedError, type FetchFeedResult as FetchedFeed } from '@newsroom/feeds';
import type { FeedImportJob, FetchFeedOutcome } from '@newsroom/queue';
import { DelayedError, UnrecoverableError } from 'bullmq';
import { importFeedBody } from './feed-body-import';
import { failFeedJob, feedGone } from './fetch-feed-failure';
import { type HostLease, type HostSlots, hostOf } from './host-slots';
import type { FetchOutcome } from './import-observer';
import type { JobDeps } from './job-deps';

/** The job's return value, as the queue contract states it (what "Import now" shows). */
export type FetchFeedResult = FetchFeedOutcome;

/**
 * A feed body above this size is parsed and imported while holding the worker's big-feed gate, one at
 * a time per process: parsing one makes tens of MB of short-lived garbage on top of its body, and
 * several at once would exceed the worker's heap cap (docker-compose.yml). News feeds are 50-500 KB
 * and never wait; a 15 MiB feed waits at most for one other big feed.
 */
export const BIG_FEED_BYTES = 2 * 1024 * 1024;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Fetches one publisher's feed and imports its new items. Permanent failures (404/410, not a feed,
 * refused address, invalid URL, too large) end the job at once with UnrecoverableError; transient
 * ones are retried with backoff. The failure is recorded on the publisher when the job gives up.
 */
export async function fetchFeedJob(
  job: FeedImportJob<'fetch-feed'>,
  deps: JobDeps,
  token?: string,
): Promise<FetchFeedResult> {
  const { publisherId } = job.data;
  // Jobs can also be added by hand on the queue dashboard: refuse a malformed one for good.
  if (typeof publisherId !== 'string' || !uuidPattern.test(publisherId)) {
    throw new UnrecoverableError('fetch-feed needs data { "publisherId": "<publisher uuid>" }');
  }
  // One publisher's jobs never hold more than its share of the worker slots (FEED_FETCHES_PER_PUBLISHER):
  // a job of a publisher already at its share is delayed at once rather than waiting in a slot. The lease
  // is named after the job, so the job run again after its worker died gets its own lease back at once.
  const publisherLease = await takeSlotOrDelay(job, deps, deps.publisherSlots, publisherId, 0, token, job.id);
  try {
    return await fetchAndImport(job, deps, token);
  } finally {
    await publisherLease.release().catch((error: unknown) => {
      deps.logger.warn(
        { err: error, jobId: job.id },
        'could not release the publisher slot (it expires by itself)',
      );
    });
  }
}

/** The job once it holds its publisher's slot: read the feed settings fresh, fetch, import. */
async function fetchAndImport(
  job: FeedImportJob<'fetch-feed'>,
  deps: JobDeps,
  token: string | undefined,
): Promise<FetchFeedResult> {
  const { publisherId } = job.data;
  const publisher = await findPublisherFeedSettings(deps.db, publisherId);
  // Disabled, unapproved or deleted since the job was queued: nothing to do.
  if (!publisher || !isImportable(publisher) || !publisher.feedUrl) return { skipped: 'not-importable' };
  const feedUrl = publisher.feedUrl;

  const giveUp = (error: unknown) => failFeedJob(job, deps, error);
  // Run again by hand after it completed (Retry in the queue dashboard): fetch afresh, without the
  // validators or the body hash, so the administrator gets the feed as it is now rather than a 304.
  const rerun = job.data.completedAt !== undefined;
  const lease = await takeHostSlot(job, deps, feedUrl, token);
  const started = performance.now();
  const fetchDone = (outcome: FetchOutcome) =>
    deps.metrics.fetchDone(outcome, (performance.now() - started) / 1000);
  let fetched: FetchedFeed;
  try {
    fetched = await deps.fetcher.fetch({
      url: feedUrl,
      etag: rerun ? null : publisher.etag,
      lastModified: rerun ? null : publisher.lastModified,
    });
  } catch (error) {
    fetchDone('error');
    // Awaited here, not returned bare: the finally below awaits too, and a rejected promise left waiting
    // meanwhile counts as an unhandled rejection.
    if (error instanceof FeedError && error.httpStatus === 410) return await feedGone(job, deps, error);
    return await giveUp(error);
  } finally {
    // The slot covers the download only: parsing and saving need no connection to the host.
    await lease?.release().catch((error: unknown) => {
      deps.logger.warn(
        { err: error, jobId: job.id },
        'could not release the host slot (it expires by itself)',
      );
    });
  }
  const now = deps.now();
  // Nothing to count or reset in the common case: no statement.
  if (fetched.movedTo || publisher.redirectTarget !== null) {
    await notePermanentRedirect(deps.db, publisherId, feedUrl, fetched.movedTo ?? null);
  }

  if (fetched.notModified) {
    fetchDone('not_modified');
    const next = nextFetchAfter(now, fetched.refreshSeconds, publisher.feedRefreshSeconds);
    const counts = await importFeedItems(deps.db, publisherId, { ...fetched, nextFetchAfter: next }, now);
    return markCompleted(job, deps, logged(job, deps, started, counts));
  }

  const { body, etag, lastModified } = fetched;
  const bodyHash = createHash('sha256').update(body).digest('hex');
  if (!rerun && bodyHash === publisher.feedBodyHash) {
    // Byte-identical to the last imported body (a server without validators): nothing new to parse.
    fetchDone('not_modified');
    const next = nextFetchAfter(now, fetched.refreshSeconds, publisher.feedRefreshSeconds);
    const counts = await recordUnchangedFeed(
      deps.db,
      publisherId,
      { etag, lastModified, nextFetchAfter: next },
      now,
    );
    return markCompleted(job, deps, logged(job, deps, started, counts));
  }
  fetchDone('fetched');

  const parseAndImport = () => importFeedBody(deps, publisherId, fetched, bodyHash, now, giveUp);
  const counts = await (body.length > BIG_FEED_BYTES
    ? deps.bigFeedGate.run(parseAndImport)
    : parseAndImport());
  deps.metrics.itemsImported(counts);
  return markCompleted(job, deps, logged(job, deps, started, counts));
}

/**
 * A fetch slot on the feed's host (at most FEED_FETCHES_PER_HOST across all replicas). A job that gets
 * none within hostWaitMs is put back as delayed (no attempt used) and runs again a little later.
 */
async function takeHostSlot(
  job: FeedImportJob<'fetch-feed'>,
  deps: JobDeps,
  feedUrl: string,
  token: string | undefined,
) {
  const host = hostOf(feedUrl);
  if (!host) return undefined;
  return takeSlotOrDelay(job, deps, deps.hostSlots, host, deps.hostWaitMs, token);
}

/**
 * A slot of `slots` for `key`, waiting at most `waitMs`; else the job is moved back to delayed for about
 * hostRedelayMs (jittered; no attempt used) and DelayedError tells BullMQ so.
 */
async function takeSlotOrDelay(
  job: FeedImportJob<'fetch-feed'>,
  deps: JobDeps,
  slots: HostSlots,
  key: string,
  waitMs: number,
  token: string | undefined,
  holder?: string,
): Promise<HostLease> {
  const lease = await slots.acquire(key, waitMs, holder);
  if (lease) return lease;
  if (!token) throw new Error(`no fetch slot free for ${key}`);
  const delayMs = Math.round(deps.hostRedelayMs * (0.5 + Math.random()));
  deps.logger.debug({ jobId: job.id, key, delayMs }, 'no slot free: fetch delayed');
  await job.moveToDelayed(Date.now() + delayMs, token);
  throw new DelayedError();
}

/** One info line per import, what an operator reads to follow the hourly cycle (and a manual fetch). */
function logged(
  job: FeedImportJob<'fetch-feed'>,
  deps: JobDeps,
  started: number,
  counts: ImportCounts,
): ImportCounts {
  const { publisherId, trigger, requestId } = job.data;
  deps.logger.info(
    {
      jobId: job.id,
      publisherId,
      trigger,
      ...(typeof requestId === 'string' ? { requestId } : {}),
      ...counts,
      durationMs: Math.round(performance.now() - started),
    },
    'feed imported',
  );
  return counts;
}

/**
 * Notes on the job that it completed, so a later hand-made rerun of it is recognised (see
 * FetchFeedJobData.completedAt). The import is already saved: a Redis hiccup here is logged, not a failure.
 */
async function markCompleted(
  job: FeedImportJob<'fetch-feed'>,
  deps: JobDeps,
  counts: ImportCounts,
): Promise<ImportCounts> {
  await job
    .updateData({ ...job.data, completedAt: deps.now().toISOString() })
    .catch((error: unknown) =>
      deps.logger.warn({ err: error, jobId: job.id }, 'could not mark the job completed'),
    );
  return counts;
}
