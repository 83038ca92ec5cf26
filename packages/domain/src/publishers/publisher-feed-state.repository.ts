import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../db/create-db';
import { type FetchRecord, saveImportBatch } from '../imports/imported-article.repository';
import { summariseFeedError } from './feed-health';

// What a fetch of a publisher's feed leaves on the publisher: validators, times, failures, pausing.

/** Consecutive failed fetches after which a feed is paused (left out of the hourly import). */
export const pauseAfterFailures = 10;

/**
 * A successful fetch without articles to save (a 304, an unchanged body): recorded in one statement
 * (saveImportBatch, which says what is stored). False when there is no such publisher.
 */
export async function recordFeedFetchSuccess(
  db: DbOrTx,
  publisherId: string,
  fetch: FetchRecord,
): Promise<boolean> {
  const { outcome } = await saveImportBatch(db, { publisherId, fetch, articles: [] });
  return outcome !== 'missing';
}

/**
 * A failed fetch (after its retries, or a permanent failure): the reason, and one more consecutive
 * failure. The failure that makes `pauseAfterFailures` in a row pauses the feed, with the reason in
 * words. Returns the publisher's name, feed URL, new count of consecutive failures and whether this
 * failure paused the feed (undefined: no such publisher).
 */
export async function recordFeedFetchFailure(
  db: DbOrTx,
  publisherId: string,
  error: string,
): Promise<
  { name: string; feedUrl: string | null; consecutiveFailures: number; paused: boolean } | undefined
> {
  const reason = pauseReason(error).slice(0, 1000);
  const row = await db
    .updateTable('publishers')
    .set((eb) => {
      const pausing = sql<boolean>`(feed_paused_at is null and consecutive_failures + 1 >= ${pauseAfterFailures})`;
      return {
        last_error: error.slice(0, 1000),
        last_failed_at: sql`now()`,
        consecutive_failures: eb('consecutive_failures', '+', 1),
        feed_paused_at: sql`case when ${pausing} then now() else feed_paused_at end`,
        feed_pause_reason: sql`case when ${pausing} then ${reason} else feed_pause_reason end`,
        updated_at: sql`now()`,
      };
    })
    .where('id', '=', publisherId)
    .returning(['name', 'feed_url as feedUrl', 'consecutive_failures as consecutiveFailures'])
    .returning(
      sql<boolean>`feed_paused_at is not null and consecutive_failures = ${pauseAfterFailures}`.as('paused'),
    )
    .executeTakeFirst();
  return row;
}

/** Why a feed was paused, in words: the failure count and the last error explained (summariseFeedError). */
export function pauseReason(storedError: string): string {
  const { message, detail } = summariseFeedError(storedError);
  const said = message.replace(/\.$/, '');
  const why = detail.replace(/\.$/, '');
  return `${pauseAfterFailures} failed fetches in a row; the last one: ${said}${why ? ` (${why})` : ''}.`;
}

/**
 * Resumes a paused feed: the pause and the failure count are cleared (the last error stays for the
 * record), so the next hourly run fetches it again. False when there is no such publisher.
 */
export async function resumeFeed(db: DbOrTx, publisherId: string): Promise<boolean> {
  const result = await db
    .updateTable('publishers')
    .set({ feed_paused_at: null, feed_pause_reason: null, consecutive_failures: 0, updated_at: sql`now()` })
    .where('id', '=', publisherId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Forgets the stored validators, the body hash and any server-hinted delay: an import that left items
 * waiting (maxNewItemsPerFetch) must get and parse the whole feed at the next hourly run, not a 304 or
 * an "unchanged body", or the waiting items would never arrive.
 */
export async function forgetFeedValidators(tx: Tx, publisherId: string): Promise<void> {
  await tx
    .updateTable('publishers')
    .set({ etag: null, last_modified: null, feed_body_hash: null, next_fetch_after: null })
    .where('id', '=', publisherId)
    .returning(['name', 'feed_url as feedUrl', 'consecutive_failures as consecutiveFailures'])
    .executeTakeFirst();
}
