import type { DbOrTx } from '../db/create-db';
import { NotFoundError } from '../errors';
import { offsetOf, type Page, type PageRequest } from '../shared/page';
import { type ListingSource, listingSourceOf } from './listing-source';
import { countListingRowsThrough } from './plain-listing.repository';
import type { PublishedArticle, PublishedArticleVersion } from './published-article';
import { findPublishedArticleBySlug } from './published-article.repository';
import {
  type Listing,
  type ListingOutline,
  type ListingPosition,
  listingAnchorStep,
  seekPosition,
} from './published-listing';
import { countSearchMatches } from './published-search.repository';

/**
 * A page of a listing by number, or by keyset cursor: `after` is the position of the last row the reader
 * has seen, and the page holds the `limit` rows after it, wherever the listing has moved since (rows
 * published meanwhile sort before it). Not for searches (their order is not a position).
 */
export interface ListingPageRequest extends PageRequest {
  after?: ListingPosition | null;
}

/** A page and where its first row sits in the listing (its offset: a cursor's page has no number of its own). */
export type ListingPage<T> = Page<T> & { offset: number };

/**
 * One page of a listing, down its pipeline (listing-source.ts): its source (plain or search) chosen once, its
 * outline, then the page. `outline` (its size and anchors) may come from a cache that is dropped on every
 * content change; without one it is read here. A page past the end is empty, with the right total.
 */
export async function listPublishedArticles(
  db: DbOrTx,
  listing: Listing,
  page: ListingPageRequest,
  outline?: ListingOutline,
): Promise<ListingPage<PublishedArticle>> {
  const source = listingSourceOf(listing);
  const { window, ...totals } = await windowOf(db, source, listing, page, outline);
  return { items: window ? await source.articlesPage(db, listing, window) : [], ...totals };
}

/**
 * The ids and row versions of one page of a listing (see listPublishedArticles), for callers that keep
 * article representations by version and read full rows only for versions they do not have.
 */
export async function listPublishedVersions(
  db: DbOrTx,
  listing: Listing,
  page: ListingPageRequest,
  outline?: ListingOutline,
): Promise<ListingPage<PublishedArticleVersion>> {
  const source = listingSourceOf(listing);
  const { window, ...totals } = await windowOf(db, source, listing, page, outline);
  return { items: window ? await source.versionsPage(db, listing, window) : [], ...totals };
}

/**
 * Where a page starts in the listing (an anchor and a short skip), or null past the end; and the total.
 * A search's total may be a lower bound (searchCountCap): a page that reaches it has the matches counted up
 * to one past its end, so the total stays a true lower bound that always shows whether a next page exists,
 * and turns exact once the count ends within that reach.
 */
async function windowOf(
  db: DbOrTx,
  source: ListingSource,
  listing: Listing,
  page: ListingPageRequest,
  outline?: ListingOutline,
) {
  const { anchors, ranked, ...counted } = outline ?? (await source.outline(db, listing));
  if (page.after && !listing.q) {
    const { after, limit } = page;
    const offset = await offsetAfter(db, listing, anchors, after);
    const totals = { total: counted.total, offset };
    if (offset >= counted.total) return { ...totals, window: null };
    return { ...totals, window: { from: after, fromExclusive: true, skip: 0, limit } };
  }
  let { total, totalIsLowerBound = false } = counted;
  const offset = offsetOf(page);
  const end = offset + page.limit;
  if (totalIsLowerBound && end >= total) {
    const reached = await countSearchMatches(db, listing, end + 1);
    totalIsLowerBound = reached > end;
    total = reached;
  }
  const totals = { total, offset, ...(listing.q ? { totalIsLowerBound } : {}) };
  if (offset >= total) return { ...totals, window: null };
  return { ...totals, window: { ...seekPosition({ total, anchors }, offset), limit: page.limit, ranked } };
}

/**
 * The offset of the first row after `after`: the rows at or before it, found from the nearest anchor at or
 * before it (so a deep cursor costs a count of fewer than `listingAnchorStep` index entries).
 */
async function offsetAfter(
  db: DbOrTx,
  listing: Listing,
  anchors: readonly ListingPosition[],
  after: ListingPosition,
): Promise<number> {
  // Anchors are in listing order (newest first): the last one at or before `after` in that order.
  let index = -1;
  while (index + 1 < anchors.length && !isAfter(anchors[index + 1] as ListingPosition, after)) index++;
  if (index < 0) return 0;
  const through = await countListingRowsThrough(db, listing, anchors[index] as ListingPosition, after);
  return index * listingAnchorStep + through;
}

/** Whether `a` comes after `b` in listing order (publishedAt desc, id desc). */
function isAfter(a: ListingPosition, b: ListingPosition): boolean {
  const at = a.publishedAt.getTime() - b.publishedAt.getTime();
  return at !== 0 ? at < 0 : a.id < b.id;
}

/** A published article visible in the scope (`siteId` null: the whole network), else NotFoundError. */
export async function getPublishedArticle(
  db: DbOrTx,
  siteId: string | null,
  slug: string,
): Promise<PublishedArticle> {
  const article = await findPublishedArticleBySlug(db, siteId, slug);
  if (!article) throw new NotFoundError('article', slug);
  return article;
}
