import { lockAndFindTakenSlugs } from '../articles/article.repository';
import { nextFreeSlug, slugBase } from '../articles/slug';
import type { Db, DbOrTx, Tx } from '../db/create-db';
import type { NewArticleRow } from '../db/tables';
import { ConflictError, NotFoundError } from '../errors';
import {
  findPublisherFeedSettings,
  forgetFeedValidators,
  type PublisherFeedSettings,
  recordFeedFetchSuccess,
  startFeedImport,
} from '../publishers/publisher-feed-state.repository';
import { inBatches } from '../shared/in-batches';
import { decideFeedItems, type ItemDecision, oldestPositions } from './import-decision';
import {
  type DeferredFeedItem,
  type ImportableFeedItem,
  type ImportedArticleDraft,
  toImportedArticle,
} from './imported-article';
import {
  findImportedGuids,
  insertArticleSiteLinks,
  insertImportedArticles,
} from './imported-article.repository';

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

/** An item as the import receives it: normalised already, or normalised only if it turns out to be new. */
export type FeedItemSource = ImportableFeedItem | DeferredFeedItem;

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

/**
 * Items per batch: one INSERT of ~250 rows (~1 MB of parameters) instead of one for the whole feed,
 * and at most this many parsed items held at once. A 50-item news feed is one batch.
 */
export const importBatchSize = 250;

/**
 * Gives each draft a slug free in the database and within the batch; `bases[i]` is the slug base of
 * `drafts[i]`. Locks the bases (until the transaction ends) and reads the slugs taken, in one round trip.
 */
async function withUniqueSlugs(tx: Tx, drafts: readonly ImportedArticleDraft[], bases: readonly string[]) {
  const taken = await lockAndFindTakenSlugs(tx, bases);
  return drafts.map((draft, index) => {
    const slug = nextFreeSlug(bases[index] as string, taken);
    taken.add(slug);
    return { draft, slug };
  });
}

function toArticleRow({ draft, slug }: { draft: ImportedArticleDraft; slug: string }): NewArticleRow {
  return {
    title: draft.title,
    slug,
    body: draft.body,
    excerpt: draft.excerpt,
    tags: draft.tags,
    category: draft.category,
    section: draft.section,
    thumbnail: draft.thumbnail,
    image: draft.image,
    status: draft.status,
    is_aggregated: true,
    source: draft.source,
    source_url: draft.sourceUrl,
    rss_feed_guid: draft.rssFeedGuid,
    publisher_id: draft.publisherId,
    published_at: draft.publishedAt,
    source_published_at: draft.sourcePublishedAt,
  };
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
 * One import's batches through the publisher's rules (decideFeedItems). Without a per-fetch cap each
 * batch's new items are saved at once; with one, the items that pass the keyword rules are held (at
 * most twice the cap: the newer ones are let go as they arrive, they would wait anyway) and the
 * oldest `cap` are saved by finish().
 */
class ImportRun {
  private inserted = 0;
  private filtered = 0;
  private waiting = 0;
  private held: ImportableFeedItem[] = [];
  private readonly cap: number | null;

  constructor(
    private readonly tx: Tx,
    private readonly publisher: PublisherFeedSettings,
    private readonly now: Date,
  ) {
    this.cap = publisher.importRules.maxNewItemsPerFetch;
  }

  /**
   * One batch of items (guids unique within the feed); `importedGuids` as known, else looked up. Only
   * new items are normalised (body sanitised, images found): most of an hourly feed is known.
   */
  async add(sources: readonly FeedItemSource[], importedGuids?: ReadonlySet<string>): Promise<void> {
    if (sources.length === 0) return;
    const known =
      importedGuids ??
      (await findImportedGuids(
        this.tx,
        this.publisher.id,
        sources.map((item) => item.guid),
      ));
    const items = sources
      .filter((item) => !known.has(item.guid))
      .map((item) => ('normalise' in item ? item.normalise() : item));
    const decisions = decideFeedItems(
      items,
      { ...this.publisher.importRules, maxNewItemsPerFetch: null },
      new Set(),
    );
    const passing = this.count(items, decisions);
    if (this.cap === null) {
      this.inserted += await importBatch(this.tx, this.publisher, passing, this.now);
      return;
    }
    this.held.push(...passing);
    if (this.held.length > 2 * this.cap) this.keepOldest(this.cap);
  }

  async finish(): Promise<{ inserted: number; filtered: number; waiting: number }> {
    if (this.cap !== null && this.held.length > 0) {
      const decisions = decideFeedItems(this.held, this.publisher.importRules, new Set());
      const now = this.count(this.held, decisions);
      this.held = [];
      this.inserted += await importBatch(this.tx, this.publisher, now, this.now);
    }
    return { inserted: this.inserted, filtered: this.filtered, waiting: this.waiting };
  }

  /** Counts the refused and waiting items; returns those to import. */
  private count(
    items: readonly ImportableFeedItem[],
    decisions: readonly ItemDecision[],
  ): ImportableFeedItem[] {
    const passing: ImportableFeedItem[] = [];
    decisions.forEach((decision, index) => {
      if (decision.outcome === 'import') passing.push(items[index] as ImportableFeedItem);
      else if (decision.outcome === 'wait') this.waiting += 1;
      else if (decision.rule !== 'alreadyImported') this.filtered += 1;
    });
    return passing;
  }

  private keepOldest(max: number): void {
    const kept = oldestPositions(this.held, max);
    this.waiting += this.held.length - kept.size;
    this.held = this.held.filter((_, position) => kept.has(position));
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

/**
 * Saves one batch of new items (guids unique within the feed, not yet imported, accepted by the
 * rules) as articles; returns how many were inserted. Slug bases are locked per batch, in sorted
 * order within it (lockAndFindTakenSlugs). Earlier batches' articles are visible to it (same transaction), so
 * slugs stay unique across batches.
 */
async function importBatch(
  tx: Tx,
  publisher: PublisherFeedSettings,
  items: readonly ImportableFeedItem[],
  now: Date,
): Promise<number> {
  const drafts = items.map((item) => toImportedArticle(item, publisher, now));
  if (drafts.length === 0) return 0;
  const bases = drafts.map((draft) => slugBase(draft.title));
  const rows = (await withUniqueSlugs(tx, drafts, bases)).map(toArticleRow);
  const inserted = await insertImportedArticles(tx, rows);
  await insertArticleSiteLinks(
    tx,
    inserted.map((row) => row.id),
    publisher.hostSiteIds,
  );
  return inserted.length;
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
