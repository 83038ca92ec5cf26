import { Readable } from 'node:stream';
import {
  articleSurrogateKeys,
  findPublishedArticleBySlug,
  findTaxonomyTerms,
  type Listing,
  listSurrogateKeys,
  type PublishedArticle,
  streamPublishedArticles,
  type Taxonomy,
} from '@newsroom/domain';
import type { ArticleView } from './article-view';
import { type ClientAnswer, jsonContentType, type StreamedAnswer } from './client-answer';
import { envelopeHead, envelopeTail } from './json-envelope';
import { listingKeyOf } from './listing-page-read';
import { articleWriter, type ClientReadSources } from './read-sources';
import { answerOf, bytesOf, etagOf } from './response-bytes';

// The client reads of one article, of everything, and of a taxonomy (a listing page: listing-page-read.ts).
// Each takes (sources, scope, params) and answers what http-caching.ts sends, with no HTTP here (see ./README.md).

/** What an article read asks: the slug, and the fields to write (null: the whole article). */
export interface ArticleParams {
  slug: string;
  fields: readonly string[] | null;
}

const articleKey = (siteId: string | null, slug: string, fields: readonly string[] | null) =>
  `article|${siteId}|${slug}|${fields ?? ''}`;

/**
 * readArticle's answer when the response cache holds it for the current content (null: held as a 404), else
 * undefined (then readArticle reads it): synchronous, so a cached read needs no promise.
 */
export function heldArticle(
  sources: ClientReadSources,
  view: ArticleView,
  { slug, fields }: ArticleParams,
): ClientAnswer | null | undefined {
  return sources.caches.responses.peek(articleKey(view.siteId, slug, fields));
}

/**
 * One published article visible in the scope (`siteId` null: any site) as bytes and their ETag; null when
 * there is none (remembered too, until the scope's content changes, so repeated misses cost no query).
 */
export async function readArticle(
  sources: ClientReadSources,
  view: ArticleView,
  { slug, fields }: ArticleParams,
): Promise<ClientAnswer | null> {
  const { siteId } = view;
  return sources.caches.responses.get(siteId, articleKey(siteId, slug, fields), async () => {
    return sources.content.read(async (db) => {
      const article = await findPublishedArticleBySlug(db, siteId, slug);
      if (!article) return null;
      const write = await articleWriter({ db, serializers: sources.serializers }, fields, view);
      return answerOf(
        bytesOf(write(article)),
        sources.freshness.cached,
        articleSurrogateKeys(siteId, article.id),
      );
    });
  });
}

/** What `/all` asks: the listing, `wrapped` (the lists' `{ data, meta }`) or `array`, and which fields. */
export interface AllParams {
  listing: Listing;
  format: 'wrapped' | 'array';
  fields: readonly string[] | null;
}

/**
 * Every article of the listing, streamed from a database cursor: the ETag at once, the body only when opened.
 * Rows are serialised and written as they arrive, and the cursor is read only as fast as the client takes the
 * bytes. However the stream ends (complete, destroyed, failed), the cursor is closed and its connection freed.
 * `wrapped`: the lists' envelope, the meta written after the last article (one page holding everything);
 * `array`: a bare JSON array (the answer before the envelope).
 */
export function readAll(sources: ClientReadSources, view: ArticleView, params: AllParams): StreamedAnswer {
  const { caches, serializers } = sources;
  const { listing, format, fields } = params;
  const token = caches.notifications.tokenOf(listing.siteId);
  const key = `all|${listingKeyOf(listing)}|${format}|${fields ?? ''}|${token}`;
  return {
    etag: token === null ? null : etagOf(key),
    contentType: jsonContentType,
    freshness: sources.freshness.streamed,
    surrogate: listSurrogateKeys(listing.siteId),
    async body() {
      // The database is chosen (and a failed replica left for the primary) up to the first row; a failure
      // mid-stream ends the stream, as on the primary.
      const { serialize, articles, first } = await sources.content.read(async (db) => {
        const serialize = await articleWriter({ db, serializers }, fields, view);
        const articles = streamPublishedArticles(db, listing);
        try {
          return { serialize, articles, first: await articles.next() };
        } catch (error) {
          await articles.return(undefined).catch(() => {});
          throw error;
        }
      });
      const envelope =
        format === 'array'
          ? { open: '[', close: () => ']' }
          : {
              open: envelopeHead,
              close: (total: number) =>
                envelopeTail(
                  serializers.meta({
                    pagination: {
                      page: 1,
                      limit: total,
                      pages: total > 0 ? 1 : 0,
                      total,
                      next: null,
                      prev: null,
                    },
                  }),
                ),
            };
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
  sources: ClientReadSources,
  siteId: string | null,
  taxonomy: Taxonomy,
): Promise<ClientAnswer> {
  const { content, caches, serializers, freshness } = sources;
  const response = await caches.responses.get(siteId, `${taxonomy}|${siteId}`, async () =>
    answerOf(
      bytesOf(
        serializers.taxonomy({
          data: await content.read((db) => findTaxonomyTerms(db, taxonomy, siteId)),
        }),
      ),
      freshness.cached,
      listSurrogateKeys(siteId),
    ),
  );
  return response as ClientAnswer;
}
