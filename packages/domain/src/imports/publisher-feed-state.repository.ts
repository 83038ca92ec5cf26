import { type ExpressionBuilder, sql } from 'kysely';
import type { DbOrTx, Tx } from '../db/create-db';
import { executePrepared } from '../db/prepared-statements';
import type { Database } from '../db/tables';
import { summariseFeedError } from './feed-health';
import { importedGuidsAmong } from './imported-guids.repository';
import {
  defaultSitesOf,
  type PublisherFeedSettings,
  settingsColumns,
  toPublisherFeedSettings,
} from './publisher-feed-settings.repository';

// What a fetch of a publisher's feed leaves on the publisher: validators, times, failures, pausing.

/** Consecutive failed fetches after which a feed is paused (left out of the hourly import). */
export const pauseAfterFailures = 10;

/**
 * What else a fetch leaves on the publisher, stored with the validators (undefined: keep what is stored):
 * the body's hash, the feed's own refresh hint and when the hourly run should fetch it next.
 */
export interface FetchState {
  bodyHash?: string | null;
  feedRefreshSeconds?: number | null;
  nextFetchAfter?: Date | null;
}

/** The fetch state a successful fetch leaves (see recordFeedFetchSuccess). */
interface SuccessfulFetch extends FetchState {
  notModified: boolean;
  etag: string | null;
  lastModified: string | null;
}

function fetchSuccessValues(fetched: SuccessfulFetch, at: Date) {
  return (eb: ExpressionBuilder<Database, 'publishers'>) => ({
    etag: fetched.notModified ? eb.fn.coalesce(eb.val(fetched.etag), eb.ref('etag')) : fetched.etag,
    last_modified: fetched.notModified
      ? eb.fn.coalesce(eb.val(fetched.lastModified), eb.ref('last_modified'))
      : fetched.lastModified,
    last_fetched_at: at,
    last_error: null,
    consecutive_failures: 0,
    // The feed answered: whatever a 410 said before no longer holds.
    feed_gone_at: null,
    ...(fetched.bodyHash !== undefined && { feed_body_hash: fetched.bodyHash }),
    ...(fetched.feedRefreshSeconds !== undefined && { feed_refresh_seconds: fetched.feedRefreshSeconds }),
    ...(fetched.nextFetchAfter !== undefined && { next_fetch_after: fetched.nextFetchAfter }),
    updated_at: sql<Date>`now()`,
  });
}

/**
 * A successful fetch: stores the validators to send next time, the time, and clears the failure
 * state. After a 304 (`notModified`) a validator the server did not repeat keeps its stored value;
 * after a full response the stored validators are exactly the response's. False when there is no
 * such publisher.
 */
export async function recordFeedFetchSuccess(
  db: DbOrTx,
  publisherId: string,
  fetched: SuccessfulFetch,
  at: Date,
): Promise<boolean> {
  const rows = await executePrepared(
    db,
    db
      .updateTable('publishers')
      .set(fetchSuccessValues(fetched, at))
      .where('id', '=', publisherId)
      .returning('id'),
  );
  return rows.length > 0;
}

/**
 * Starts an import of a full fetch, in one statement: records the fetch as recordFeedFetchSuccess
 * does (inside the import's transaction, so it is undone with the items if the import fails), which
 * locks the publisher's row until the transaction ends (two imports of one publisher, the hourly one
 * and a manual re-trigger, run one after the other), and returns the publisher's feed settings and
 * which of `guids` it has already imported. Undefined when there is no such publisher.
 *
 * The guids are read with the statement's snapshot, taken before it waits for the row lock: articles
 * that a concurrent import commits meanwhile are not among them, and the insert's ON CONFLICT skips
 * those (as it does for any race).
 */
export async function startFeedImport(
  tx: Tx,
  publisherId: string,
  fetched: SuccessfulFetch,
  at: Date,
  guids: readonly string[],
): Promise<{ publisher: PublisherFeedSettings; importedGuids: Set<string> } | undefined> {
  const [row] = await executePrepared(
    tx,
    tx
      .updateTable('publishers')
      .set(fetchSuccessValues(fetched, at))
      .where('publishers.id', '=', publisherId)
      .returning(settingsColumns)
      .returning(defaultSitesOf)
      .returning(importedGuidsAmong(sql.ref('publishers.id'), guids).as('imported_guids')),
  );
  return row && { publisher: toPublisherFeedSettings(row), importedGuids: new Set(row.imported_guids) };
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
