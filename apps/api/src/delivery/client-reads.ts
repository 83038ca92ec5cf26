import { Readable } from 'node:stream';
import {
  type DbOrTx,
  findListingOutline,
  findPublishedArticleBySlug,
  findPublishedArticlesByIds,
  findSiteById,
  findTaxonomyTerms,
  type Listing,
  type ListingOutline,
  type ListingPageRequest,
  type ListingPosition,
  listPublishedArticles,
  listPublishedVersions,
  type PublishedArticle,
  streamPublishedArticles,
  type Taxonomy,
} from '@newsroom/domain';
import { paginationMeta } from '../schemas/pagination.schema';
import type { ArticleJsonCache } from './article-json-cache';
import { type ArticleView, articleInView } from './article-view';
import type { ClientSerializers } from './client-serializers';
import type { ContentNotifications } from './content-notifications';
import { encodeListingCursor } from './listing-cursor';
import { pageResponse, type SerialisedArticle, serialiseArticle } from './page-assembly';
import { type CacheableResponse, cacheable, etagOf } from './response-bytes';
import type { VersionedMemo } from './versioned-memo';

// The client read path: page, article, all and taxonomies, each answering ready bytes (or a stream) and an ETag.
// No HTTP here: the routes send what these return (see ./README.md and http-caching.ts for the headers).

/** The caches the reads go through (one set per API replica, see client-content.plugin.ts). */
export interface ClientCaches {
  notifications: ContentNotifications;
  /** Serialised responses (null: a 404) by route + scope + parameters. */
  responses: VersionedMemo<CacheableResponse | null>;
  /** Listing sizes and anchors by listing. */
  outlines: VersionedMemo<ListingOutline>;
  /** Serialised articles by row version. */
  articleJson: ArticleJsonCache;
}

/** What every read needs: where the content is, the caches in front of it, and the JSON writers. */
export interface ClientReadSources {
  db: DbOrTx;
  caches: ClientCaches;
  serializers: ClientSerializers;
}

/** Names a listing: every field of it (scope, filters, search), so two listings share a key only if equal. */
const keyOf = (listing: Listing) =>
  JSON.stringify([
    listing.siteId,
    listing.aggregatedOnly,
    listing.tag,
    listing.category,
    listing.section,
    listing.source ?? null,
    listing.aggregated ?? null,
    listing.publishedAfter?.toISOString() ?? null,
    listing.publishedBefore?.toISOString() ?? null,
    listing.q ?? null,
  ]);

/**
 * One page of a listing as `{ data, meta }` bytes and their ETag, by number or after a list cursor
 * (`page.after`). `fields`: a sparse fieldset (the article fields to write, in the article's order), null for
 * whole articles.
 */
export async function readListingPage(
  sources: ClientReadSources,
  listing: Listing,
  page: ListingPageRequest,
  fields: readonly string[] | null,
  view: ArticleView,
): Promise<CacheableResponse> {
  const { db, caches } = sources;
  const listingKey = keyOf(listing);
  // The key names the scope (listing.siteId) and the fields: the view (url, structured data) follows from both.
  const at = page.after ? `after:${encodeListingCursor(page.after)}` : page.page;
  const response = await caches.responses.get(
    listing.siteId,
    `page|${listingKey}|${at}|${page.limit}|${fields ?? ''}`,
    async () => {
      const outline = await caches.outlines.get(listing.siteId, listingKey, () =>
        findListingOutline(db, listing),
      );
      const write = await articleWriter(sources, fields, view);
      return assemblePage(db, caches.articleJson, sources.serializers, listing, page, outline, fields, write);
    },
  );
  return response as CacheableResponse;
}

/**
 * How the articles of one read are written: the view's article (its site's `url`, or the network's `urls`;
 * structured data when `fields` asks for it, with the site read once for the whole fill), by the serialiser
 * of `fields`.
 */
export async function articleWriter(
  { db, serializers }: Pick<ClientReadSources, 'db' | 'serializers'>,
  fields: readonly string[] | null,
  view: ArticleView,
): Promise<(article: PublishedArticle) => string> {
  const serialize = serializers.articleWith(fields);
  let scoped = view;
  if (fields?.includes('structuredData') && view.siteId !== null) {
    const site = await findSiteById(db, view.siteId);
    scoped = { ...view, structuredDataSite: site ? { name: site.name, language: site.language } : null };
  }
  return (article) => serialize(articleInView(article, scoped));
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
  listing: Listing,
  page: ListingPageRequest,
  outline: ListingOutline,
  fields: readonly string[] | null,
  serialize: (article: PublishedArticle) => string,
): Promise<CacheableResponse> {
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

/**
 * One published article visible in the scope (`siteId` null: any site) as bytes and their ETag; null when
 * there is none (remembered too, until the scope's content changes, so repeated misses cost no query).
 */
export async function readArticle(
  sources: ClientReadSources,
  view: ArticleView,
  slug: string,
  fields: readonly string[] | null = null,
): Promise<CacheableResponse | null> {
  const { siteId } = view;
  return sources.caches.responses.get(siteId, `article|${siteId}|${slug}|${fields ?? ''}`, async () => {
    const article = await findPublishedArticleBySlug(sources.db, siteId, slug);
    if (!article) return null;
    const write = await articleWriter(sources, fields, view);
    return cacheable(write(article));
  });
}

/** Every article of a listing: the ETag at once, the body only when opened (a 304 never opens a cursor). */
export interface AllArticles {
  /** Names the scope's content state (null while the notifications connection is down: no ETag). */
  etag: string | null;
  /** Starts the read; resolves once the first row is in, so a database failure is still a clean error. */
  open(): Promise<Readable>;
}

/** How `/all` writes its articles: `wrapped` (the lists' `{ data, meta }`) or `array`, and which fields. */
export interface AllOptions {
  format: 'wrapped' | 'array';
  fields: readonly string[] | null;
}

/**
 * Every article of the listing, streamed from a database cursor: rows are serialised and written as they
 * arrive, and the cursor is read only as fast as the client takes the bytes. However the stream ends
 * (complete, destroyed, failed), the cursor is closed and its connection freed. `wrapped`: the lists' shape,
 * `{"data":[...],"meta":{"pagination":...}}`, the meta written after the last article (one page holding
 * everything); `array`: a bare JSON array (the answer before the wrapper).
 */
export function readAll(
  sources: ClientReadSources,
  listing: Listing,
  options: AllOptions,
  view: ArticleView,
): AllArticles {
  const { db, caches, serializers } = sources;
  const token = caches.notifications.tokenOf(listing.siteId);
  const key = `all|${keyOf(listing)}|${options.format}|${options.fields ?? ''}|${token}`;
  return {
    etag: token === null ? null : etagOf(key),
    async open() {
      const serialize = await articleWriter(sources, options.fields, view);
      const envelope =
        options.format === 'array'
          ? { open: '[', close: () => ']' }
          : {
              open: '{"data":[',
              close: (total: number) =>
                `],"meta":${serializers.meta({
                  pagination: {
                    page: 1,
                    limit: total,
                    pages: total > 0 ? 1 : 0,
                    total,
                    next: null,
                    prev: null,
                  },
                })}}`,
            };
      const articles = streamPublishedArticles(db, listing);
      const first = await articles.next();
      const body = Readable.from(jsonArray(first, articles, serialize, envelope), { objectMode: false });
      // A failed close (the connection broke or timed out) leaves the connection to be discarded by the pool;
      // it must not become an unhandled rejection, which would end the process.
      body.once('close', () => void articles.return(undefined).catch(() => {}));
      return body;
    },
  };
}

async function* jsonArray(
  first: IteratorResult<PublishedArticle>,
  rest: AsyncIterator<PublishedArticle>,
  serialize: (item: PublishedArticle) => string,
  envelope: { open: string; close: (count: number) => string },
): AsyncGenerator<string> {
  yield envelope.open;
  let next = first;
  let count = 0;
  while (!next.done) {
    yield (count > 0 ? ',' : '') + serialize(next.value);
    count++;
    next = await rest.next();
  }
  yield envelope.close(count);
}

/**
 * A taxonomy of the scope's published articles with counts (`siteId` null: any site), `{ data: [{ name,
 * slug, count }] }`, as bytes and their ETag, through the scope's response cache.
 */
export async function readTaxonomy(
  { db, caches, serializers }: ClientReadSources,
  taxonomy: Taxonomy,
  siteId: string | null,
): Promise<CacheableResponse> {
  const response = await caches.responses.get(siteId, `${taxonomy}|${siteId}`, async () =>
    cacheable(serializers.taxonomy({ data: await findTaxonomyTerms(db, taxonomy, siteId) })),
  );
  return response as CacheableResponse;
}
