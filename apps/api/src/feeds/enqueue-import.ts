import type { RedisClient } from '@newsroom/queue';
import { enqueueManualFetch, type FeedImportQueue, type PublisherRef } from '@newsroom/queue';
import { HttpError } from '../http-error';
import { withDeadline } from '../with-deadline';

/** How long a queue operation may take before the API gives up on Redis and answers 503. */
export const queueTimeoutMs = 2_000;

const unavailable = () =>
  new HttpError(503, 'QUEUE_UNAVAILABLE', 'The job queue is unavailable; try again shortly', {
    'retry-after': '10',
  });

/**
 * Queues a fetch of the publisher now and returns the job id (the previous one's while it is still
 * queued or finished less than a minute ago). The job carries `requestId` (the API request's X-Request-Id) into
 * the worker's logs. `connection` is the queue's connection. Fails fast with 503 QUEUE_UNAVAILABLE when Redis is
 * down or slow, instead of hanging.
 */
export async function enqueueImport(
  queue: FeedImportQueue | undefined,
  connection: RedisClient,
  publisher: PublisherRef,
  requestId?: string,
): Promise<string> {
  // Known to be down: answer at once rather than after the timeout.
  if (!queue || connection.status !== 'ready') throw unavailable();
  try {
    return await withDeadline(
      enqueueManualFetch(queue, connection, publisher, new Date(), requestId),
      queueTimeoutMs,
      unavailable,
    );
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw unavailable();
  }
}
