import type { Db, DbOrTx, Tx } from '../db/create-db';
import { ConflictError, NotFoundError } from '../errors';
import {
  findPublisherFeedSettings,
  lockPublisherForImport,
  type PublisherFeedSettings,
} from '../publishers/publisher-feed-settings.repository';
import { forgetFeedValidators, recordFeedFetchSuccess } from '../publishers/publisher-feed-state.repository';
import { inBatches } from '../shared/in-batches';
import { decideFeedItems, type ItemDecision } from './import-decision';
import { ImportRun, importBatchSize } from './import-run';
import {
  type FeedItemSource,
  type ImportableFeedItem,
  type ImportedArticleDraft,
  toImportedArticle,
} from './imported-article';
import {
  type FetchRecord,
  findImportedGuids,
  type ImportedArticleRow,
  saveImportBatch,
} from './imported-article.repository';

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
        /** Guids looked up before parsing and found new: not looked up again. */
        newGuids?: ReadonlySet<string>;
        /** The publisher's feed settings as read before the fetch (else they are read here). */
        settings?: PublisherFeedSettings;
      }
  );

/**
 * What else a fetch leaves on the publisher, stored with the validators (undefined: keep what is stored):
 * the body's hash, the feed's own refresh hint and when the hourly run should fetch it next.
 */
export interface FetchState {
  bodyHash?: string | null;
  feedRefreshSeconds?: number | null;
  nextFetchAfter?: Date | null;
}

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

type FullFetch = Extract<FetchedFeedItems, { notModified: false }>;

/**
 * Imports one fetch of a publisher's feed: the new items become articles (ON CONFLICT on the publisher's
 * guid skips those already imported, even by a concurrent import), linked to the publisher's default host
 * sites, and the fetch state is recorded (validators, time, failures cleared) with them, atomically, so
 * validators are never stored for items that were not. A 304 (`notModified`) only records the fetch.
 *
 * A feed of one batch (`importBatchSize` items: every news feed) is saved in one statement, with no
 * transaction held while it is parsed: its rows are built from the settings read before (`feed.settings`, or
 * read here) and saveImportBatch refuses them if those settings changed meanwhile; then, and for a longer
 * feed, the import runs in a transaction that locks the publisher's row first and reads the settings under
 * the lock, saving the items `importBatchSize` at a time as `feed.items` yields them. If reading fails (the
 * stream throws), nothing of the feed is saved.
 */
export async function importFeedItems(
  db: Db,
  publisherId: string,
  feed: FetchedFeedItems,
  now: Date = new Date(),
): Promise<ImportCounts> {
  if (feed.notModified) {
    if (!(await recordFeedFetchSuccess(db, publisherId, fetchRecord(feed, now)))) {
      throw new NotFoundError('publisher', publisherId);
    }
    return { fetched: 0, inserted: 0, skipped: 0, filtered: 0, waiting: 0, notModified: true };
  }
  // The first occurrence of each guid wins (feeds occasionally repeat an item), across batches too.
  const seenGuids = new Set<string>();
  const firstsOf = (batch: readonly FeedItemSource[]) =>
    batch.filter((item) => !seenGuids.has(item.guid) && seenGuids.add(item.guid));
  const batches = inBatches(feed.items, importBatchSize);
  const counted = (fetched: number, saved: { inserted: number; filtered: number; waiting: number }) => ({
    fetched,
    ...saved,
    skipped: fetched - saved.inserted - saved.filtered - saved.waiting,
    notModified: false,
  });
  try {
    const first = await batches.next();
    const firstItems = first.done ? [] : firstsOf(first.value);
    const second = first.done ? first : await batches.next();
    let fetched = (feed.alreadyImported ?? 0) + (first.done ? 0 : first.value.length);
    if (second.done) {
      const saved = await importOneBatch(db, publisherId, feed, firstItems, now);
      if (saved) return counted(fetched, saved);
    }
    return await db.transaction().execute(async (tx) => {
      const locked = await lockPublisherForImport(
        tx,
        publisherId,
        firstItems.map((item) => item.guid),
      );
      if (!locked) throw new NotFoundError('publisher', publisherId);
      const { publisher } = locked;
      await saveImportBatch(tx, { publisherId, fetch: fetchRecord(feed, now), articles: [] });
      const run = new ImportRun(publisher, now);
      let inserted = await saveRows(tx, publisherId, run.add(firstItems, locked.importedGuids));
      for await (const batch of second.done ? batches : prepend(second.value, batches)) {
        fetched += batch.length;
        const items = firstsOf(batch);
        const known = await findImportedGuids(
          tx,
          publisherId,
          items.map((item) => item.guid),
        );
        inserted += await saveRows(tx, publisherId, run.add(items, known));
      }
      const { rows, filtered, waiting } = run.finish();
      inserted += await saveRows(tx, publisherId, rows);
      // Waiting items must reach the next fetch: a 304 would hide them.
      if (waiting > 0) await forgetFeedValidators(tx, publisherId);
      return counted(fetched, { inserted, filtered, waiting });
    });
  } finally {
    // Stops the parser when the import ends early (a failure); a finished stream ignores it.
    await batches.return();
  }
}

/**
 * A feed of one batch, saved with its fetch in one statement (saveImportBatch) from the settings read before
 * the fetch. Undefined when the settings changed since: the caller imports in a transaction instead.
 */
async function importOneBatch(
  db: Db,
  publisherId: string,
  feed: FullFetch,
  sources: readonly FeedItemSource[],
  now: Date,
): Promise<{ inserted: number; filtered: number; waiting: number } | undefined> {
  const settings = feed.settings ?? (await getPublisherFeedSettings(db, publisherId));
  const unchecked = sources.filter((item) => !feed.newGuids?.has(item.guid)).map((item) => item.guid);
  const known = await findImportedGuids(db, publisherId, unchecked);
  const run = new ImportRun(settings, now);
  const rows = run.add(sources, known);
  const { rows: held, filtered, waiting } = run.finish();
  // Waiting items must reach the next fetch: a 304 or an "unchanged body" would hide them.
  const fetch =
    waiting > 0
      ? { ...fetchRecord(feed, now), etag: null, lastModified: null, bodyHash: null, nextFetchAfter: null }
      : fetchRecord(feed, now);
  const { outcome, inserted } = await saveImportBatch(db, {
    publisherId,
    fetch,
    fingerprint: settings.importFingerprint,
    articles: [...rows, ...held],
  });
  if (outcome === 'missing') throw new NotFoundError('publisher', publisherId);
  return outcome === 'stale' ? undefined : { inserted, filtered, waiting };
}

async function saveRows(tx: Tx, publisherId: string, articles: readonly ImportedArticleRow[]) {
  if (articles.length === 0) return 0;
  return (await saveImportBatch(tx, { publisherId, articles })).inserted;
}

async function* prepend<T>(head: T, rest: AsyncIterable<T>): AsyncGenerator<T> {
  yield head;
  yield* rest;
}

function fetchRecord(
  feed: FetchState & { notModified: boolean; etag: string | null; lastModified: string | null },
  at: Date,
): FetchRecord {
  return {
    notModified: feed.notModified,
    etag: feed.etag,
    lastModified: feed.lastModified,
    at,
    ...(feed.bodyHash !== undefined && { bodyHash: feed.bodyHash }),
    ...(feed.feedRefreshSeconds !== undefined && { feedRefreshSeconds: feed.feedRefreshSeconds }),
    ...(feed.nextFetchAfter !== undefined && { nextFetchAfter: feed.nextFetchAfter }),
  };
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
  if (
    !(await recordFeedFetchSuccess(db, publisherId, fetchRecord({ ...fetched, notModified: false }, now)))
  ) {
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

/** One previewed item: the article it would become and what the publisher's rules decide about it. */
export interface PreviewedItem {
  article: ImportedArticleDraft;
  decision: ItemDecision;
}

/**
 * What an import of `items` would do for the publisher, without saving anything (the test-feed
 * preview): per item, the article it would become and the decision of the rules (decideFeedItems,
 * the import's own), `alreadyImported` being the guids the publisher has. The per-fetch cap applies
 * to the items given. Uses the import's own mapping, so the preview cannot drift from it.
 */
export function previewFeedImport(
  publisher: PublisherFeedSettings,
  items: readonly ImportableFeedItem[],
  now: Date = new Date(),
  alreadyImported: ReadonlySet<string> = new Set(),
): PreviewedItem[] {
  const decisions = decideFeedItems(items, publisher.importRules, alreadyImported);
  return items.map((item, index) => ({
    article: toImportedArticle(item, publisher, now),
    decision: decisions[index] as ItemDecision,
  }));
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
