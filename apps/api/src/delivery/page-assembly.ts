import { createHash } from 'node:crypto';
import type { PublishedArticle } from '@newsroom/domain';
import type { CacheableResponse } from './response-bytes';

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

const dataOpen = Buffer.from('{"data":[');
const comma = Buffer.from(',');

/**
 * A listing page's response: `{"data":[` + the articles joined by `,` + `],"meta":` + meta + `}` (what the
 * route's response schema writes). Its ETag hashes the articles' digests and the meta: a function of the body
 * bytes alone (the same body has the same ETag on every replica and every path), without hashing ~70 KB
 * per request.
 */
export function pageResponse(articles: readonly SerialisedArticle[], metaJson: string): CacheableResponse {
  const parts: Buffer[] = [dataOpen];
  const etag = createHash('sha1');
  articles.forEach((article, index) => {
    if (index > 0) parts.push(comma);
    parts.push(article.json);
    etag.update(article.digest);
  });
  const tail = Buffer.from(`],"meta":${metaJson}}`, 'utf8');
  parts.push(tail);
  etag.update(tail);
  return { body: Buffer.concat(parts), etag: `"${etag.digest('base64url')}"`, encoding: null };
}
