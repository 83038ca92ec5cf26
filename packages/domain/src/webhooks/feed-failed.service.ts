import type { Db } from '../db/create-db';
import { recordFeedFetchFailure } from '../imports/publisher-feed-state.repository';
import { feedFailedEvent } from './webhook-event';
import { insertFeedFailedDeliveries } from './webhook-relay.repository';

/**
 * Records a publisher's failed fetch (recordFeedFetchFailure) and, when it is failure number
 * `feedFailedAfter` in a row, a `publisher.feed_failed` event for the subscribed endpoints, in the same
 * transaction: the event is sent once per run of failures (a success resets the count), and is never lost
 * to a Redis outage (the worker's sweep enqueues its deliveries). Says whether this failure paused the feed
 * (recordFeedFetchFailure: the 10th in a row).
 */
export async function recordFeedFailureWithWebhook(
  db: Db,
  publisherId: string,
  error: string,
  feedFailedAfter: number,
  now = new Date(),
): Promise<{ paused: boolean }> {
  return db.transaction().execute(async (tx) => {
    const publisher = await recordFeedFetchFailure(tx, publisherId, error);
    const paused = { paused: publisher?.paused ?? false };
    if (publisher?.consecutiveFailures !== feedFailedAfter) return paused;
    const event = feedFailedEvent(
      {
        id: publisherId,
        name: publisher.name,
        feedUrl: publisher.feedUrl,
        consecutiveFailures: publisher.consecutiveFailures,
        lastError: error.slice(0, 1000),
      },
      now,
    );
    await insertFeedFailedDeliveries(tx, event, publisherId);
    return paused;
  });
}
