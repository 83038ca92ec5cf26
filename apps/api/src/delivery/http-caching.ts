import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AllArticles } from './client-reads';
import { representationOf } from './content-encoding';
import type { CacheableResponse } from './response-bytes';

// The one HTTP piece of the client read path: freshness headers, conditional requests, sending.

/** Whether If-None-Match names this ETag (weak comparison, as RFC 9110 prescribes for If-None-Match). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header === etag) return true;
  const bare = etag.replace(/^W\//, '');
  return header
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag.replace(/^W\//, '') === bare);
}

/** The Cache-Control of successful client responses, written once per configuration (not per request). */
const cacheControlByConfig = new WeakMap<object, string>();
function cacheControlOf(request: FastifyRequest): string {
  const client = request.server.config.client;
  let value = cacheControlByConfig.get(client);
  if (value === undefined) {
    value = `private, max-age=${client.cacheMaxAge}, stale-while-revalidate=${client.staleWhileRevalidate}`;
    cacheControlByConfig.set(client, value);
  }
  return value;
}

/**
 * Freshness headers of a successful client response. Failures keep the `no-store` the key guard sets.
 * `private`: a response answers one key, and a shared cache (CDN, proxy) that ignored `Vary: x-api-key`
 * would serve it to any caller, keyless ones included; only the child site's own (private) cache may
 * keep it. It still revalidates cheaply with the ETag. See docs/client-api.md#http-caching.
 */
function setClientCacheHeaders(request: FastifyRequest, reply: FastifyReply, etag: string | null): void {
  reply.header('cache-control', cacheControlOf(request));
  if (etag) reply.header('etag', etag);
}

/**
 * Sends a cached or freshly serialised body (JSON unless told) in the representation the request accepts
 * (gzip or identity, see content-encoding.ts; each with its own ETag), or 304 when the client already has that
 * representation.
 */
export function sendCacheable(
  request: FastifyRequest,
  reply: FastifyReply,
  response: CacheableResponse,
  contentType = 'application/json; charset=utf-8',
) {
  const sent = representationOf(response, request.headers['accept-encoding']);
  setClientCacheHeaders(request, reply, sent.etag);
  reply.header('vary', 'x-api-key, accept-encoding, origin');
  if (matchesIfNoneMatch(request.headers['if-none-match'], sent.etag)) return reply.code(304).send();
  if (sent.encoding) reply.header('content-encoding', sent.encoding);
  return reply.type(contentType).send(sent.body);
}

/**
 * Sends a streamed body, or 304 (without reading anything) when the client already has this state. Never
 * compressed (see README.md): the stream's bytes go out as Postgres yields them.
 */
export async function sendStreamed(request: FastifyRequest, reply: FastifyReply, all: AllArticles) {
  setClientCacheHeaders(request, reply, all.etag);
  if (all.etag && matchesIfNoneMatch(request.headers['if-none-match'], all.etag)) {
    return reply.code(304).send();
  }
  return reply.type('application/json; charset=utf-8').send(await all.open());
}
