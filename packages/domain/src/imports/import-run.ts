import { slugBase } from '../articles/slug';
import type { PublisherFeedSettings } from '../publishers/publisher-feed-settings.repository';
import { decideFeedItems, type ItemDecision, oldestPositions } from './import-decision';
import {
  type FeedItemSource,
  type ImportableFeedItem,
  type ImportedArticleDraft,
  toImportedArticle,
} from './imported-article';
import type { ImportedArticleRow } from './imported-article.repository';

// One import's items through the publisher's rules, into the rows to save (saveImportBatch saves them, and
// gives them unique slugs). feed-import.service.ts reads the items, looks up the known guids and saves.

/**
 * Items per batch: one INSERT of ~250 rows (~1 MB of parameters) instead of one for the whole feed,
 * and at most this many parsed items held at once. A 50-item news feed is one batch.
 */
export const importBatchSize = 250;

/**
 * One import's batches through the publisher's rules (decideFeedItems). Without a per-fetch cap each
 * batch's new items are to be saved at once; with one, the items that pass the keyword rules are held (at
 * most twice the cap: the newer ones are let go as they arrive, they would wait anyway) and the
 * oldest `cap` are given by finish().
 */
export class ImportRun {
  private filtered = 0;
  private waiting = 0;
  private held: ImportableFeedItem[] = [];
  private readonly cap: number | null;

  constructor(
    private readonly publisher: PublisherFeedSettings,
    private readonly now: Date,
  ) {
    this.cap = publisher.importRules.maxNewItemsPerFetch;
  }

  /**
   * One batch of items (guids unique within the feed) without those in `known` (already imported): the rows
   * to save now. Only new items are normalised (body sanitised, images found): most of an hourly feed is known.
   */
  add(sources: readonly FeedItemSource[], known: ReadonlySet<string>): ImportedArticleRow[] {
    const items = sources
      .filter((item) => !known.has(item.guid))
      .map((item) => ('normalise' in item ? item.normalise() : item));
    if (items.length === 0) return [];
    const decisions = decideFeedItems(
      items,
      { ...this.publisher.importRules, maxNewItemsPerFetch: null },
      new Set(),
    );
    const passing = this.count(items, decisions);
    if (this.cap === null) return this.rows(passing);
    this.held.push(...passing);
    if (this.held.length > 2 * this.cap) this.keepOldest(this.cap);
    return [];
  }

  /** The rows held back for the per-fetch cap (the oldest `cap`), and what was refused or left waiting. */
  finish(): { rows: ImportedArticleRow[]; filtered: number; waiting: number } {
    let rows: ImportedArticleRow[] = [];
    if (this.cap !== null && this.held.length > 0) {
      const decisions = decideFeedItems(this.held, this.publisher.importRules, new Set());
      rows = this.rows(this.count(this.held, decisions));
      this.held = [];
    }
    return { rows, filtered: this.filtered, waiting: this.waiting };
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

  private rows(items: readonly ImportableFeedItem[]): ImportedArticleRow[] {
    return items.map((item) => toArticleRow(toImportedArticle(item, this.publisher, this.now)));
  }
}

function toArticleRow(draft: ImportedArticleDraft): ImportedArticleRow {
  return {
    title: draft.title,
    slug_base: slugBase(draft.title),
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
