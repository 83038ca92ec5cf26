import type { SurrogateKeys } from '@newsroom/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientAnswer, ClientFreshness, ClientRead, Freshness, StreamedAnswer } from './client-answer';
import { representationOf } from './content-encoding';

// The one HTTP piece of the client read path: every read's answer is sent here (freshness headers,
// conditional requests, the representation a request accepts).

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

/**
 * The freshness of each kind of client answer, written once per app from its configuration (never per request).
 * `private`: a response answers one key, and a shared cache (CDN, proxy) that ignored `Vary: x-api-key`
 * would serve it to any caller, keyless ones included; only the child site's own (private) cache may
 * keep it. It still revalidates cheaply with the ETag. See docs/client-api.md#http-caching.
 */
export function freshnessOf(client: {
  cacheMaxAge: number;
  staleWhileRevalidate: number;
  shared: { maxAge: number; sMaxAge: number; staleWhileRevalidate: number };
}): ClientFreshness {
  const cacheControl = `private, max-age=${client.cacheMaxAge}, stale-while-revalidate=${client.staleWhileRevalidate}`;
  // Publishable keys: the answer shows only published content of the key's site, nothing secret varies it.
  const { shared } = client;
  const sharedCacheControl = `public, max-age=${shared.maxAge}, s-maxage=${shared.sMaxAge}, stale-while-revalidate=${shared.staleWhileRevalidate}`;
  return {
    cached: {
      cacheControl,
      sharedCacheControl,
      vary: 'x-api-key, accept-encoding, origin',
      compressible: true,
      notModifiedPayload: undefined,
    },
    // Never compressed (see README.md): the stream's bytes go out as Postgres yields them.
    streamed: {
      cacheControl,
      sharedCacheControl,
      vary: null,
      compressible: false,
      notModifiedPayload: undefined,
    },
    // A poller that is caught up gets the same body for the same cursor: If-None-Match then answers 304.
    revalidated: {
      cacheControl: 'private, no-cache',
      sharedCacheControl: null,
      vary: null,
      compressible: false,
      notModifiedPayload: null,
    },
  };
}

/**
 * Sends a read's answer: bytes in the representation the request accepts (gzip or identity when the answer
 * is compressible, see content-encoding.ts; each with its own ETag), or a stream opened only now; or 304
 * when the client already has that representation. Failures are thrown before this and keep `no-store`.
 */
export function sendClientRead(request: FastifyRequest, reply: FastifyReply, read: ClientRead) {
  if (typeof read.body === 'function') return sendStreamed(request, reply, read as StreamedAnswer);
  const answer = read as ClientAnswer;
  const { freshness } = answer;
  const sent = freshness.compressible ? representationOf(answer, request.headers['accept-encoding']) : answer;
  sendFreshness(request, reply, freshness, answer.surrogate);
  reply.header('etag', sent.etag);
  if (freshness.vary !== null) reply.header('vary', freshness.vary);
  if (matchesIfNoneMatch(request.headers['if-none-match'], sent.etag)) {
    return reply.code(304).send(freshness.notModifiedPayload);
  }
  if (sent.encoding) reply.header('content-encoding', sent.encoding);
  return reply.type(answer.contentType).send(sent.body);
}

/**
 * Cache-Control, and for a publishable key's answer the shared one with its surrogate keys in the three
 * syntaxes CDNs read (Fastly Surrogate-Key, Varnish xkey, Cloudflare Cache-Tag). Secret keys' answers stay
 * private and carry no surrogate keys: no shared cache keeps them.
 */
function sendFreshness(
  request: FastifyRequest,
  reply: FastifyReply,
  freshness: Freshness,
  surrogate: SurrogateKeys | null,
): void {
  if (freshness.sharedCacheControl === null || request.clientScope?.publishable !== true) {
    reply.header('cache-control', freshness.cacheControl);
    return;
  }
  reply.header('cache-control', freshness.sharedCacheControl);
  if (surrogate !== null) {
    reply.header('surrogate-key', surrogate.spaced);
    reply.header('xkey', surrogate.spaced);
    reply.header('cache-tag', surrogate.commas);
  }
}

async function sendStreamed(request: FastifyRequest, reply: FastifyReply, answer: StreamedAnswer) {
  const { freshness, etag } = answer;
  sendFreshness(request, reply, freshness, answer.surrogate);
  if (etag) reply.header('etag', etag);
  if (freshness.vary !== null) reply.header('vary', freshness.vary);
  if (etag && matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
    return reply.code(304).send(freshness.notModifiedPayload);
  }
  return reply.type(answer.contentType).send(await answer.body());
}
