import type { DbOrTx } from '../db/create-db';
import { NotFoundError } from '../errors';
import { offsetOf, type Page, type PageRequest } from '../shared/page';
import type { PublishedArticle } from './published-article';
import {
  findListingOutline,
  findPublishedArticleBySlug,
  findPublishedArticlesPage,
} from './published-article.repository';
import { type Listing, type ListingOutline, seekPosition } from './published-listing';

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
  const { total, anchors } = outline ?? (await findListingOutline(db, listing));
  const offset = offsetOf(page);
  if (offset >= total) return { items: [], total };
  const { from, skip } = seekPosition({ total, anchors }, offset);
  const items = await findPublishedArticlesPage(db, listing, { from, skip, limit: page.limit });
  return { items, total };
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
