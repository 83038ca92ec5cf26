import { summariseFeedError } from '@newsroom/domain';
import type { RedisClient } from '@newsroom/queue';
import { type FeedImportQueue, type FetchJobStatus, readFetchJobStatus } from '@newsroom/queue';
import { HttpError } from '../http-error';
import type { ImportStatus } from '../schemas/feed-import.schema';
import { withDeadline } from '../with-deadline';
import { queueTimeoutMs } from './enqueue-import';

const unavailable = () =>
  new HttpError(503, 'QUEUE_UNAVAILABLE', 'The job queue is unavailable; try again shortly', {
    'retry-after': '10',
  });

function toImportStatus({ state, outcome, failedReason }: FetchJobStatus): ImportStatus {
  if (state === 'failed') {
    const { code, message, detail } = summariseFeedError(failedReason ?? '');
    return { state, error: { code, message, detail } };
  }
  if (state !== 'completed' || !outcome) return { state };
  if ('notModified' in outcome) {
    const { fetched, inserted, skipped, filtered = 0, waiting = 0, notModified } = outcome;
    return { state, outcome: { fetched, inserted, skipped, filtered, waiting, notModified } };
  }
  return {
    state,
    error: {
      code: 'PUBLISHER_NOT_IMPORTABLE',
      message:
        'Nothing was fetched: the publisher was not approved, was disabled or had no feed when the job ran.',
    },
  };
}

/**
 * Where the publisher's fetch job `jobId` stands ("Import now" follows it): 404 IMPORT_JOB_NOT_FOUND
 * when there is no such job of that publisher (or it was trimmed), 503 when Redis is down or slow.
 */
export async function readImportStatus(
  queue: FeedImportQueue | undefined,
  connection: RedisClient,
  publisherId: string,
  jobId: string,
): Promise<ImportStatus> {
  if (!queue || connection.status !== 'ready') throw unavailable();
  let status: FetchJobStatus | undefined;
  try {
    status = await withDeadline(readFetchJobStatus(queue, publisherId, jobId), queueTimeoutMs, unavailable);
  } catch {
    throw unavailable();
  }
  if (!status) throw new HttpError(404, 'IMPORT_JOB_NOT_FOUND', `No import job ${jobId} for this publisher`);
  return toImportStatus(status);
}
