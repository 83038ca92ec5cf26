import type { DbOrTx } from '../db/create-db';
import type { ListingWindow } from './listing-positions';
import {
  findPlainArticlesPage,
  findPlainOutline,
  findPlainVersionsPage,
  streamPlainArticles,
} from './plain-listing.repository';
import type { PublishedArticle, PublishedArticleVersion } from './published-article';
import type { Listing, ListingOutline } from './published-listing';
import {
  findSearchArticlesPage,
  findSearchOutline,
  findSearchVersionsPage,
  streamSearchArticles,
} from './published-search.repository';

export type { ListingWindow } from './listing-positions';

// The read pipeline of a listing: choose its source once (a plain listing in date order, or a search, ranked),
// then its outline (size and anchors, or a search's capped count and ranked ids), then a page in that outline
// (published-article.service.ts) or the whole listing streamed.

/** Where a listing's rows come from: every step of the pipeline, for one kind of listing. */
export interface ListingSource {
  outline(db: DbOrTx, listing: Listing): Promise<ListingOutline>;
  articlesPage(db: DbOrTx, listing: Listing, window: ListingWindow): Promise<PublishedArticle[]>;
  versionsPage(db: DbOrTx, listing: Listing, window: ListingWindow): Promise<PublishedArticleVersion[]>;
  stream(db: DbOrTx, listing: Listing, chunkSize: number): AsyncGenerator<PublishedArticle>;
}

const plainListing: ListingSource = {
  outline: findPlainOutline,
  articlesPage: findPlainArticlesPage,
  versionsPage: findPlainVersionsPage,
  stream: streamPlainArticles,
};

const searchListing: ListingSource = {
  // A search is ranked, not in listing order: no anchors; its capped size and its ranked part instead.
  outline: (db, listing) => findSearchOutline(db, listing),
  articlesPage: findSearchArticlesPage,
  versionsPage: findSearchVersionsPage,
  stream: streamSearchArticles,
};

/** The one place a listing is told plain or search: by its `q`. */
export function listingSourceOf(listing: Listing): ListingSource {
  return listing.q ? searchListing : plainListing;
}

/** The listing's outline: its size and every `listingAnchorStep`-th position (a search: see findSearchOutline). */
export function findListingOutline(db: DbOrTx, listing: Listing): Promise<ListingOutline> {
  return listingSourceOf(listing).outline(db, listing);
}

/** Every article of the listing in its order, read in chunks (see streamPlainArticles). */
export function streamPublishedArticles(
  db: DbOrTx,
  listing: Listing,
  chunkSize = 500,
): AsyncGenerator<PublishedArticle> {
  return listingSourceOf(listing).stream(db, listing, chunkSize);
}
