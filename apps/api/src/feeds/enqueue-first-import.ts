import type { PublisherDetail } from '@newsroom/domain';
import type { RedisClient } from '@newsroom/queue';
import { enqueueFirstFetch, type FeedImportQueue } from '@newsroom/queue';
import type { FastifyBaseLogger } from 'fastify';
import { withDeadline } from '../with-deadline';
import { queueTimeoutMs } from './enqueue-import';

/**
 * Queues the first import of a publisher that is importable now (approved, enabled, feed URL set), after
 * an approval or a new feed URL. Never fails the request: when Redis is down or slow (bounded by
 * queueTimeoutMs) it logs a warning and the hourly import picks the publisher up. Returns the job id,
 * or undefined when nothing was queued.
 */
export async function enqueueFirstImport(
  queue: FeedImportQueue | undefined,
  connection: RedisClient,
  publisher: PublisherDetail,
  log: FastifyBaseLogger,
  requestId?: string,
): Promise<string | undefined> {
  const { id, name, feedUrl, approved, disabledAt } = publisher;
  if (!feedUrl || !approved || disabledAt !== null) return undefined;
  const warn = (err?: unknown) =>
    log.warn(
      { err, publisherId: id },
      'first import not queued (queue unavailable); the hourly import will run it',
    );
  // Known to be down: do not wait for the timeout.
  if (!queue || connection.status !== 'ready') {
    warn();
    return undefined;
  }
  try {
    return await withDeadline(
      enqueueFirstFetch(queue, { id, name, feedUrl }, requestId),
      queueTimeoutMs,
      () => new Error(`queue did not answer within ${queueTimeoutMs} ms`),
    );
  } catch (err) {
    warn(err);
    return undefined;
  }
}
