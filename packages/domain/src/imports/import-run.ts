import { lockAndFindTakenSlugs } from '../articles/article.repository';
import { nextFreeSlug, slugBase } from '../articles/slug';
import type { Tx } from '../db/create-db';
import type { NewArticleRow } from '../db/tables';
import { decideFeedItems, type ItemDecision, oldestPositions } from './import-decision';
import {
  type FeedItemSource,
  type ImportableFeedItem,
  type ImportedArticleDraft,
  toImportedArticle,
} from './imported-article';
import { insertImportedArticles } from './imported-article.repository';
import { findImportedGuids } from './imported-guids.repository';
import type { PublisherFeedSettings } from './publisher-feed-settings.repository';

// Saving one import's new items inside its transaction (feed-import.service.ts opens it): the publisher's
// rules decide, slugs are made unique, rows are inserted and linked to the publisher's host sites.

/**
 * Items per batch: one INSERT of ~250 rows (~1 MB of parameters) instead of one for the whole feed,
 * and at most this many parsed items held at once. A 50-item news feed is one batch.
 */
export const importBatchSize = 250;

/**
 * One import's batches through the publisher's rules (decideFeedItems). Without a per-fetch cap each
 * batch's new items are saved at once; with one, the items that pass the keyword rules are held (at
 * most twice the cap: the newer ones are let go as they arrive, they would wait anyway) and the
 * oldest `cap` are saved by finish().
 */
export class ImportRun {
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
  // Linked to the publisher's host sites, each with its first revision: the database builds it from the row as
  // inserted, with the host sites sorted as the admin read sorts them.
  return insertImportedArticles(
    tx,
    rows,
    { ids: publisher.hostSiteIds, slugs: [...publisher.hostSites].sort() },
    {
      write: { actor: { kind: 'feed', id: publisher.id, label: publisher.name }, source: 'import' },
      at: now,
    },
  );
}

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
    thumbnail_meta: draft.thumbnailMeta && JSON.stringify(draft.thumbnailMeta),
    image_meta: draft.imageMeta && JSON.stringify(draft.imageMeta),
    bylines: JSON.stringify(draft.bylines),
    standfirst: draft.standfirst,
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
