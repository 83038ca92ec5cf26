import type { DbOrTx } from '../db/create-db';
import { NotFoundError } from '../errors';
import { offsetOf, type Page, type PageRequest } from '../shared/page';
import type { PublishedArticle, PublishedArticleVersion } from './published-article';
import {
  findListingOutline,
  findPublishedArticleBySlug,
  findPublishedArticlesPage,
  findPublishedVersionsPage,
} from './published-article.repository';
import { type Listing, type ListingOutline, seekPosition } from './published-listing';
import { countSearchMatches } from './published-search.repository';

/**
 * One page of a listing. `outline` (its size and anchors) may come from a cache that is dropped on every
 * content change; without one it is read here. A page past the end is empty, with the right total.
 */
export async function listPublishedArticles(
  db: DbOrTx,
  listing: Listing,
  page: PageRequest,
  outline?: ListingOutline,
): Promise<Page<PublishedArticle>> {
  const { window, ...totals } = await windowOf(db, listing, page, outline);
  return { items: window ? await findPublishedArticlesPage(db, listing, window) : [], ...totals };
}

/**
 * The ids and row versions of one page of a listing (see listPublishedArticles), for callers that keep
 * article representations by version and read full rows only for versions they do not have.
 */
export async function listPublishedVersions(
  db: DbOrTx,
  listing: Listing,
  page: PageRequest,
  outline?: ListingOutline,
): Promise<Page<PublishedArticleVersion>> {
  const { window, ...totals } = await windowOf(db, listing, page, outline);
  return { items: window ? await findPublishedVersionsPage(db, listing, window) : [], ...totals };
}

/**
 * Where a page starts in the listing (an anchor and a short skip), or null past the end; and the total.
 * A search's total may be a lower bound (searchCountCap): a page that reaches it has the matches counted up
 * to one past its end, so the total stays a true lower bound that always shows whether a next page exists,
 * and turns exact once the count ends within that reach.
 */
async function windowOf(db: DbOrTx, listing: Listing, page: PageRequest, outline?: ListingOutline) {
  const { anchors, ranked, ...counted } = outline ?? (await findListingOutline(db, listing));
  let { total, totalIsLowerBound = false } = counted;
  const offset = offsetOf(page);
  const end = offset + page.limit;
  if (totalIsLowerBound && end >= total) {
    const reached = await countSearchMatches(db, listing, end + 1);
    totalIsLowerBound = reached > end;
    total = reached;
  }
  const totals = { total, ...(listing.q ? { totalIsLowerBound } : {}) };
  if (offset >= total) return { ...totals, window: null };
  return { ...totals, window: { ...seekPosition({ total, anchors }, offset), limit: page.limit, ranked } };
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
