import { Readable } from 'node:stream';
import {
  findListingOutline,
  findPublishedArticlesByIds,
  getPublishedArticle,
  type Listing,
  type ListingOutline,
  listPublishedArticles,
  listPublishedVersions,
  NotFoundError,
  type PageRequest,
  type PublishedArticle,
  streamPublishedArticles,
} from '@newsroom/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ClientArticleSchema } from '../schemas/client-article.schema';
import { PaginationMetaSchema, paginationMeta } from '../schemas/pagination.schema';
import {
  type CacheableResponse,
  cacheable,
  cachePolicyOf,
  etagOf,
  matchesIfNoneMatch,
  sendCacheable,
  setClientCacheHeaders,
} from './http-caching';
import { pageResponse, serialiseArticle } from './page-assembly';

// The client routes' reads: each goes through the response cache (by route + scope + parameters),
// serialises with the route's response schema once per content generation, and answers 304 when it can.

const keyOf = (listing: Listing) =>
  JSON.stringify([listing.siteId, listing.aggregatedOnly, listing.tag, listing.category, listing.section]);

export async function sendListingPage(
  request: FastifyRequest,
  reply: FastifyReply,
  listing: Listing,
  page: PageRequest,
) {
  const { db, clientContent } = request.server;
  const listingKey = keyOf(listing);
  const response = await clientContent.responses.get(
    `page|${listingKey}|${page.page}|${page.limit}`,
    async () => {
      const outline = await clientContent.outlines.get(listingKey, () => findListingOutline(db, listing));
      return listingPage(request, reply, listing, page, outline);
    },
  );
  return sendCacheable(request, reply, response as NonNullable<typeof response>);
}

/**
 * A listing page's response. The page's ids and row versions come from Postgres; the JSON of each article is
 * reused from the article cache when it holds that version, and only the others are read in full. If an
 * article changed between those two reads, the page is read in one query (one snapshot) instead.
 */
async function listingPage(
  request: FastifyRequest,
  reply: FastifyReply,
  listing: Listing,
  page: PageRequest,
  outline: ListingOutline,
): Promise<CacheableResponse> {
  const { db, clientContent } = request.server;
  const serialize = articleSerializer(reply);
  const { items: versions, total } = await listPublishedVersions(db, listing, page, outline);
  let articles = await clientContent.articleJson.jsonOf(
    versions,
    (ids) => findPublishedArticlesByIds(db, ids),
    serialize,
  );
  let pageTotal = total;
  if (!articles) {
    const plain = await listPublishedArticles(db, listing, page, outline);
    articles = plain.items.map((article) => serialiseArticle(serialize, article));
    pageTotal = plain.total;
  }
  const serializeMeta = reply.compileSerializationSchema(
    PaginationMetaSchema as unknown as Record<string, unknown>,
  );
  return pageResponse(articles, serializeMeta({ pagination: paginationMeta(page, pageTotal) }));
}

function articleSerializer(reply: FastifyReply) {
  return reply.compileSerializationSchema(
    ClientArticleSchema as unknown as Record<string, unknown>,
  ) as unknown as (article: PublishedArticle) => string;
}

export async function sendArticle(
  request: FastifyRequest,
  reply: FastifyReply,
  siteId: string | null,
  slug: string,
) {
  const { db, clientContent } = request.server;
  const response = await clientContent.responses.get(`article|${siteId}|${slug}`, async () => {
    try {
      return cacheable(reply.serialize(await getPublishedArticle(db, siteId, slug)) as string);
    } catch (error) {
      // An unknown slug is remembered too (until the next change), so repeated misses cost no query.
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  });
  if (!response) throw new NotFoundError('article', slug);
  return sendCacheable(request, reply, response);
}

/**
 * Every article of the listing as one JSON array, streamed from a database cursor: rows are serialised and
 * written as they arrive, and the cursor is read only as fast as the client takes the bytes.
 * The ETag names the content state (the change feed's token), so it is known before the body is.
 */
export async function sendAllArticles(request: FastifyRequest, reply: FastifyReply, listing: Listing) {
  const { db, clientContent } = request.server;
  const token = clientContent.feed.token;
  const etag = token === null ? null : etagOf(`all|${keyOf(listing)}|${token}`);
  setClientCacheHeaders(reply, cachePolicyOf(request), etag);
  if (etag && matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  const serialize = articleSerializer(reply);
  const articles = streamPublishedArticles(db, listing);
  // Wait for the first row before answering: a database failure up to here is still a clean error response
  // (after the headers, all that is left is to cut the connection).
  const first = await articles.next();
  const body = Readable.from(jsonArray(first, articles, serialize), { objectMode: false });
  // However the response ends (complete, client gone, error), close the cursor and free its connection.
  body.once('close', () => void articles.return(undefined));
  return reply.type('application/json; charset=utf-8').send(body);
}

async function* jsonArray<T>(
  first: IteratorResult<T>,
  rest: AsyncIterator<T>,
  serialize: (item: T) => string,
): AsyncGenerator<string> {
  yield '[';
  let next = first;
  let separator = '';
  while (!next.done) {
    yield separator + serialize(next.value);
    separator = ',';
    next = await rest.next();
  }
  yield ']';
}
