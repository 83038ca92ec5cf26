import type { VersionedArticle } from '@newsroom/domain';
import type { FastifyReply } from 'fastify';

/** The ETag of an article: its row version (see VersionedArticle), quoted. A strong validator. */
export function articleEtag(version: string): string {
  return `"${version}"`;
}

/**
 * The article versions an `If-Match` header accepts, for a compare-and-set write. Undefined when the header
 * is absent or holds `*` (any current version: the write is unconditional, as without the header). Otherwise
 * the values of its strong entity tags; weak ones (`W/"..."`) and malformed entries never match (RFC 9110
 * compares If-Match strongly), so a header of only those yields [] and the write is refused.
 */
export function versionsOfIfMatch(header: string | string[] | undefined): string[] | undefined {
  if (header === undefined) return undefined;
  const entries = (Array.isArray(header) ? header.join(',') : header).split(',').map((entry) => entry.trim());
  if (entries.includes('*')) return undefined;
  return entries.flatMap((entry) => {
    const match = /^"([0-9]{1,20})"$/.exec(entry);
    return match?.[1] ? [match[1]] : [];
  });
}

/** Sends an article with its ETag header. */
export function withEtag(reply: FastifyReply, article: VersionedArticle): VersionedArticle {
  reply.header('etag', articleEtag(article.version));
  return article;
}
