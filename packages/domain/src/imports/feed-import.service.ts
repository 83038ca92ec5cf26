import { findTakenSlugs, lockSlugBases } from '../articles/article.repository';
import { nextFreeSlug, slugBase } from '../articles/slug';
import type { Db, DbOrTx } from '../db/create-db';
import type { NewArticleRow } from '../db/tables';
import { ConflictError, NotFoundError } from '../errors';
import {
  findPublisherFeedSettings,
  lockPublisherFeedSettings,
  type PublisherFeedSettings,
  recordFeedFetchSuccess,
} from '../publishers/publisher-feed-state.repository';
import { type ImportableFeedItem, type ImportedArticleDraft, toImportedArticle } from './imported-article';
import {
  findImportedGuids,
  insertArticleSiteLinks,
  insertImportedArticles,
} from './imported-article.repository';

/** What a fetch of the feed produced: a 304, or the parsed items with the response's validators. */
export type FetchedFeedItems =
  | { notModified: true; etag: string | null; lastModified: string | null }
  | {
      notModified: false;
      items: readonly ImportableFeedItem[];
      etag: string | null;
      lastModified: string | null;
    };

/** Result of importing one feed. `skipped` = items already imported (or repeated within the feed). */
export interface ImportCounts {
  fetched: number;
  inserted: number;
  skipped: number;
  notModified: boolean;
}

/** The first occurrence of each guid (feeds occasionally repeat an item). */
function uniqueByGuid(items: readonly ImportableFeedItem[]): ImportableFeedItem[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.guid) && seen.add(item.guid));
}

/** Gives each draft a slug free in the database and within the batch. Bases must be locked first. */
async function withUniqueSlugs(tx: DbOrTx, drafts: readonly ImportedArticleDraft[]) {
  const bases = drafts.map((draft) => slugBase(draft.title));
  const taken = await findTakenSlugs(tx, [...new Set(bases)]);
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
    tags: draft.tags,
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
 * import), linked to the publisher's default host sites; then the fetch state is recorded
 * (validators, time, failures cleared), so validators are never stored for items that were not.
 */
export async function importFeedItems(
  db: Db,
  publisherId: string,
  feed: FetchedFeedItems,
  now: Date = new Date(),
): Promise<ImportCounts> {
  return db.transaction().execute(async (tx) => {
    const publisher = await lockPublisherFeedSettings(tx, publisherId);
    if (!publisher) throw new NotFoundError('publisher', publisherId);
    if (feed.notModified) {
      await recordFeedFetchSuccess(tx, publisherId, feed, now);
      return { fetched: 0, inserted: 0, skipped: 0, notModified: true };
    }

    const items = uniqueByGuid(feed.items);
    const known = await findImportedGuids(
      tx,
      publisherId,
      items.map((item) => item.guid),
    );
    const drafts = items
      .filter((item) => !known.has(item.guid))
      .map((item) => toImportedArticle(item, publisher, now));
    await lockSlugBases(
      tx,
      drafts.map((draft) => slugBase(draft.title)),
    );
    const rows = (await withUniqueSlugs(tx, drafts)).map(toArticleRow);
    const inserted = await insertImportedArticles(tx, rows);
    await insertArticleSiteLinks(
      tx,
      inserted.map((row) => row.id),
      publisher.hostSiteIds,
    );
    await recordFeedFetchSuccess(tx, publisherId, feed, now);
    return {
      fetched: feed.items.length,
      inserted: inserted.length,
      skipped: feed.items.length - inserted.length,
      notModified: false,
    };
  });
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
 * The articles an import of `items` would create for the publisher, without saving anything
 * (the test-feed preview). Uses the import's own mapping, so the preview cannot drift from it.
 */
export function previewFeedImport(
  publisher: PublisherFeedSettings,
  items: readonly ImportableFeedItem[],
  now: Date = new Date(),
): ImportedArticleDraft[] {
  return items.map((item) => toImportedArticle(item, publisher, now));
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
        : undefined;
  if (reason) throw new ConflictError('PUBLISHER_NOT_IMPORTABLE', `Publisher ${publisherId} ${reason}`);
  return publisher;
}
