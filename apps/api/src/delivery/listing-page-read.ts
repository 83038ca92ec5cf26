import {
  type DbOrTx,
  findListingOutline,
  findPublishedArticlesByIds,
  type Listing,
  type ListingOutline,
  type ListingPageRequest,
  type ListingPosition,
  listPublishedArticles,
  listPublishedVersions,
  listSurrogateKeys,
  type PublishedArticle,
} from '@newsroom/domain';
import { paginationMeta } from '../schemas/pagination.schema';
import type { ArticleJsonCache } from './article-json-cache';
import type { ArticleView } from './article-view';
import type { ClientAnswer } from './client-answer';
import type { ClientSerializers } from './client-serializers';
import { encodeListingCursor } from './listing-cursor';
import { pageResponse, type SerialisedArticle, serialiseArticle } from './page-assembly';
import { articleWriter, type ClientReadSources } from './read-sources';
import { answerOf, type ResponseBytes } from './response-bytes';

/** What a page read asks: the listing, the page (by number or after a list cursor) and the sparse fieldset. */
export interface ListingPageParams extends ListingPageRequest {
  listing: Listing;
  /** The article fields to write, in the article's order; null for whole articles. */
  fields: readonly string[] | null;
}

/** Names a listing: every field of it (scope, filters, search), so two listings share a key only if equal. */
export const listingKeyOf = (listing: Listing) =>
  JSON.stringify([
    listing.siteId,
    listing.aggregatedOnly,
    listing.tag,
    listing.category,
    listing.section,
    listing.source ?? null,
    listing.author ?? null,
    listing.aggregated ?? null,
    listing.publishedAfter?.toISOString() ?? null,
    listing.publishedBefore?.toISOString() ?? null,
    listing.q ?? null,
  ]);

/** A page's key in the response cache; it names the scope (listing.siteId) and the fields, so the view follows. */
function pageKeyOf(listingKey: string, params: ListingPageParams): string {
  const at = params.after ? `after:${encodeListingCursor(params.after)}` : params.page;
  return `page|${listingKey}|${at}|${params.limit}|${params.fields ?? ''}`;
}

/**
 * readListingPage's answer when the response cache holds it for the current content, else undefined (then
 * readListingPage reads it): synchronous, so a cached page needs no promise.
 */
export function heldListingPage(
  sources: ClientReadSources,
  params: ListingPageParams,
): ClientAnswer | undefined {
  return (sources.caches.responses.peek(pageKeyOf(listingKeyOf(params.listing), params)) ?? undefined) as
    | ClientAnswer
    | undefined;
}

/** One page of a listing as `{ data, meta }` bytes and their ETag, by number or after a list cursor. */
export async function readListingPage(
  sources: ClientReadSources,
  view: ArticleView,
  params: ListingPageParams,
): Promise<ClientAnswer> {
  const { caches, serializers } = sources;
  const { listing, fields } = params;
  const listingKey = listingKeyOf(listing);
  const response = await caches.responses.get(listing.siteId, pageKeyOf(listingKey, params), () =>
    sources.content.read(async (db) => {
      const outline = await caches.outlines.get(listing.siteId, listingKey, () =>
        findListingOutline(db, listing),
      );
      const write = await articleWriter({ db, serializers }, fields, view);
      const bytes = await assemblePage(db, caches.articleJson, serializers, params, outline, write);
      return answerOf(bytes, sources.freshness.cached, listSurrogateKeys(listing.siteId));
    }),
  );
  return response as ClientAnswer;
}

/**
 * A listing page's response. The page's ids and row versions come from Postgres; the JSON of each article is
 * reused from the article cache when it holds that version, and only the others are read in full. If an
 * article changed between those two reads, the page is read in one query (one snapshot) instead.
 * The article cache holds whole articles: a sparse page (`fields`) is serialised from the rows.
 */
async function assemblePage(
  db: DbOrTx,
  articleJson: ArticleJsonCache,
  serializers: ClientSerializers,
  params: ListingPageParams,
  outline: ListingOutline,
  serialize: (article: PublishedArticle) => string,
): Promise<ResponseBytes> {
  const { listing, fields } = params;
  const page: ListingPageRequest = { page: params.page, limit: params.limit, after: params.after };
  let articles: SerialisedArticle[] | null = null;
  let counted: { total: number; offset: number; totalIsLowerBound?: boolean } = { total: 0, offset: 0 };
  let last: Partial<ListingPosition> | undefined;
  if (fields === null) {
    const { items: versions, ...totals } = await listPublishedVersions(db, listing, page, outline);
    counted = totals;
    last = versions.at(-1) as Partial<ListingPosition> | undefined;
    articles = await articleJson.jsonOf(
      versions,
      (ids) => findPublishedArticlesByIds(db, ids),
      serialize,
      listing.siteId,
    );
  }
  if (!articles) {
    const { items, ...totals } = await listPublishedArticles(db, listing, page, outline);
    articles = items.map((article) => serialiseArticle(serialize, article));
    counted = totals;
    last = items.at(-1) as Partial<ListingPosition> | undefined;
  }
  // A cursor's page is numbered by where its first article sits (its offset need not be a multiple of limit).
  const number = page.after ? Math.floor(counted.offset / page.limit) + 1 : page.page;
  const pagination = paginationMeta(
    { page: number, limit: page.limit },
    counted.total,
    counted.totalIsLowerBound,
  );
  const more = counted.offset + articles.length < counted.total;
  // Searches are ranked, not in date order: they have no cursor.
  const nextCursor = listing.q
    ? undefined
    : more && last?.publishedAt && last.id
      ? encodeListingCursor({ publishedAt: last.publishedAt, id: last.id })
      : null;
  return pageResponse(
    articles,
    serializers.meta({ pagination: nextCursor === undefined ? pagination : { ...pagination, nextCursor } }),
  );
}
