import type { Db, DbOrTx } from '../db/create-db';
import { ConflictError, NotFoundError } from '../errors';
import { inBatches } from '../shared/in-batches';
import { ImportRun, importBatchSize } from './import-run';
import type { FeedItemSource } from './imported-article';
import { findPublisherFeedSettings, type PublisherFeedSettings } from './publisher-feed-settings.repository';
import {
  type FetchState,
  forgetFeedValidators,
  recordFeedFetchSuccess,
  startFeedImport,
} from './publisher-feed-state.repository';

export { importBatchSize } from './import-run';
export type { FeedItemSource } from './imported-article';

/**
 * What a fetch of the feed produced: a 304, or the items with the response's validators. The items
 * may be a stream (the parser's output, item by item), so a big feed is never held whole.
 */
export type FetchedFeedItems = FetchState &
  (
    | { notModified: true; etag: string | null; lastModified: string | null }
    | {
        notModified: false;
        items: Iterable<FeedItemSource> | AsyncIterable<FeedItemSource>;
        etag: string | null;
        lastModified: string | null;
        /** Items of the feed recognised as already imported before parsing, and left out of `items`. */
        alreadyImported?: number;
      }
  );

/**
 * Result of importing one feed. `skipped` = items already imported (or repeated within the feed);
 * `filtered` = items refused by the publisher's keyword rules (never stored); `waiting` = new items
 * over the publisher's per-fetch cap, left for the next fetch.
 */
export interface ImportCounts {
  fetched: number;
  inserted: number;
  skipped: number;
  filtered: number;
  waiting: number;
  notModified: boolean;
}

/**
 * Imports one fetch of a publisher's feed in one transaction: the new items become articles
 * (ON CONFLICT on the publisher's guid skips those already imported, even by a concurrent
 * import), linked to the publisher's default host sites, and the fetch state is recorded
 * (validators, time, failures cleared) in the same transaction, so validators are never stored
 * for items that were not.
 * Items are read and saved `importBatchSize` at a time as `feed.items` yields them. The first batch
 * (a whole news feed) is read before the transaction opens, so a typical import holds no
 * transaction, row lock or pooled connection while its feed is parsed; if reading fails (the stream
 * throws), nothing of the feed is saved. A 304 (`notModified`) only records the fetch, in one statement.
 */
export async function importFeedItems(
  db: Db,
  publisherId: string,
  feed: FetchedFeedItems,
  now: Date = new Date(),
): Promise<ImportCounts> {
  if (feed.notModified) {
    // Nothing to insert: one UPDATE, which takes the row lock itself (so it waits for a concurrent
    // import of the publisher like the transaction below), in one round trip instead of four.
    if (!(await recordFeedFetchSuccess(db, publisherId, feed, now))) {
      throw new NotFoundError('publisher', publisherId);
    }
    return { fetched: 0, inserted: 0, skipped: 0, filtered: 0, waiting: 0, notModified: true };
  }
  // The first occurrence of each guid wins (feeds occasionally repeat an item), across batches too.
  const seenGuids = new Set<string>();
  const firstsOf = (batch: readonly FeedItemSource[]) =>
    batch.filter((item) => !seenGuids.has(item.guid) && seenGuids.add(item.guid));
  const batches = inBatches(feed.items, importBatchSize);
  try {
    const first = await batches.next();
    const alreadyImported = feed.alreadyImported ?? 0;
    let fetched = alreadyImported + (first.done ? 0 : first.value.length);
    const firstItems = first.done ? [] : firstsOf(first.value);
    return await db.transaction().execute(async (tx) => {
      const started = await startFeedImport(
        tx,
        publisherId,
        feed,
        now,
        firstItems.map((item) => item.guid),
      );
      if (!started) throw new NotFoundError('publisher', publisherId);
      const { publisher } = started;
      const run = new ImportRun(tx, publisher, now);
      await run.add(firstItems, started.importedGuids);
      for await (const batch of batches) {
        fetched += batch.length;
        await run.add(firstsOf(batch));
      }
      const { inserted, filtered, waiting } = await run.finish();
      // Waiting items must reach the next fetch: a 304 would hide them.
      if (waiting > 0) await forgetFeedValidators(tx, publisherId);
      return {
        fetched,
        inserted,
        skipped: fetched - inserted - filtered - waiting,
        filtered,
        waiting,
        notModified: false,
      };
    });
  } finally {
    // Stops the parser when the import ends early (a failure); a finished stream ignores it.
    await batches.return();
  }
}

/**
 * A full response whose body is byte-identical to the last imported one (its hash matched): nothing is
 * parsed; the fetch is recorded like a 304 (one statement) except that the stored validators become
 * exactly the response's, as after any full response. Counted as not modified.
 */
export async function recordUnchangedFeed(
  db: Db,
  publisherId: string,
  fetched: { etag: string | null; lastModified: string | null } & FetchState,
  now: Date = new Date(),
): Promise<ImportCounts> {
  if (!(await recordFeedFetchSuccess(db, publisherId, { ...fetched, notModified: false }, now))) {
    throw new NotFoundError('publisher', publisherId);
  }
  return { fetched: 0, inserted: 0, skipped: 0, filtered: 0, waiting: 0, notModified: true };
}

/** The publisher's feed settings, or a NotFoundError. */
export async function getPublisherFeedSettings(
  db: DbOrTx,
  publisherId: string,
): Promise<PublisherFeedSettings> {
  const publisher = await findPublisherFeedSettings(db, publisherId);
  if (!publisher) throw new NotFoundError('publisher', publisherId);
  return publisher;
}

/**
 * The publisher, if an import of its feed can run now: a NotFoundError when there is no such
 * publisher, a ConflictError PUBLISHER_NOT_IMPORTABLE saying why when it is not approved, is
 * disabled or has no feed URL.
 */
export async function getImportablePublisher(
  db: DbOrTx,
  publisherId: string,
): Promise<PublisherFeedSettings> {
  const publisher = await getPublisherFeedSettings(db, publisherId);
  const reason = !publisher.feedUrl
    ? 'has no feed URL'
    : !publisher.approved
      ? 'is not approved'
      : publisher.disabled
        ? 'is disabled'
        : publisher.pausedAt
          ? 'has its feed paused after repeated failures: resume it first'
          : undefined;
  if (reason) throw new ConflictError('PUBLISHER_NOT_IMPORTABLE', `Publisher ${publisherId} ${reason}`);
  return publisher;
}
