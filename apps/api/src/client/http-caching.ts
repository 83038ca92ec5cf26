import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A serialised client response, ready to send again: kept as bytes, so a cache hit encodes nothing. */
export interface CacheableResponse {
  body: Buffer;
  etag: string;
}

/** A strong validator derived from the bytes: the same body gets the same ETag on every replica. */
export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

export function cacheable(json: string): CacheableResponse {
  const body = Buffer.from(json, 'utf8');
  return { body, etag: etagOf(body) };
}

/** Whether If-None-Match names this ETag (weak comparison, as RFC 9110 prescribes for If-None-Match). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag.replace(/^W\//, '') === bare);
}

/**
 * Freshness headers of a successful client response. Failures keep the `no-store` the key guard sets.
 * `private`: a response answers one key, and a shared cache (CDN, proxy) that ignored `Vary: x-api-key`
 * would serve it to any caller, keyless ones included; only the child site's own (private) cache may
 * keep it. It still revalidates cheaply with the ETag. See docs/client-api.md#http-caching.
 */
export function setClientCacheHeaders(
  reply: FastifyReply,
  policy: { maxAge: number; staleWhileRevalidate: number },
  etag: string | null,
): void {
  reply.header(
    'cache-control',
    `private, max-age=${policy.maxAge}, stale-while-revalidate=${policy.staleWhileRevalidate}`,
  );
  if (etag) reply.header('etag', etag);
}

/** Sends a cached or freshly serialised JSON body, or 304 when the client already has it. */
export function sendCacheable(request: FastifyRequest, reply: FastifyReply, response: CacheableResponse) {
  setClientCacheHeaders(reply, cachePolicyOf(request), response.etag);
  if (matchesIfNoneMatch(request.headers['if-none-match'], response.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(response.body);
}

export function cachePolicyOf(request: FastifyRequest) {
  const { cacheMaxAge, staleWhileRevalidate } = request.server.config.client;
  return { maxAge: cacheMaxAge, staleWhileRevalidate };
}
