import { createHash } from 'node:crypto';
import type { PublishedArticle } from '@newsroom/domain';
import { envelopeTail, jsonEnvelope } from './json-envelope';
import type { ResponseBytes } from './response-bytes';

/** One article's client JSON, as bytes, with the sha1 of those bytes. */
export interface SerialisedArticle {
  json: Buffer;
  digest: Buffer;
}

export function serialiseArticle(
  serialize: (article: PublishedArticle) => string,
  article: PublishedArticle,
): SerialisedArticle {
  const json = Buffer.from(serialize(article), 'utf8');
  return { json, digest: createHash('sha1').update(json).digest() };
}

/**
 * A listing page's response: the envelope of the articles and `meta` (what the route's response schema
 * writes). Its ETag hashes the articles' digests and the tail: a function of the body bytes alone (the same
 * body has the same ETag on every replica and every path), without hashing ~70 KB per request.
 */
export function pageResponse(articles: readonly SerialisedArticle[], metaJson: string): ResponseBytes {
  const etag = createHash('sha1');
  for (const article of articles) etag.update(article.digest);
  const tail = Buffer.from(envelopeTail(metaJson), 'utf8');
  etag.update(tail);
  return {
    body: jsonEnvelope(
      articles.map((article) => article.json),
      tail,
    ),
    etag: `"${etag.digest('base64url')}"`,
  };
}
