import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientAnswer, ClientFreshness, ClientRead, StreamedAnswer } from './client-answer';
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
export function freshnessOf(client: { cacheMaxAge: number; staleWhileRevalidate: number }): ClientFreshness {
  const cacheControl = `private, max-age=${client.cacheMaxAge}, stale-while-revalidate=${client.staleWhileRevalidate}`;
  return {
    cached: {
      cacheControl,
      vary: 'x-api-key, accept-encoding, origin',
      compressible: true,
      notModifiedPayload: undefined,
    },
    // Never compressed (see README.md): the stream's bytes go out as Postgres yields them.
    streamed: { cacheControl, vary: null, compressible: false, notModifiedPayload: undefined },
    // A poller that is caught up gets the same body for the same cursor: If-None-Match then answers 304.
    revalidated: {
      cacheControl: 'private, no-cache',
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
  reply.header('cache-control', freshness.cacheControl);
  reply.header('etag', sent.etag);
  if (freshness.vary !== null) reply.header('vary', freshness.vary);
  if (matchesIfNoneMatch(request.headers['if-none-match'], sent.etag)) {
    return reply.code(304).send(freshness.notModifiedPayload);
  }
  if (sent.encoding) reply.header('content-encoding', sent.encoding);
  return reply.type(answer.contentType).send(sent.body);
}

async function sendStreamed(request: FastifyRequest, reply: FastifyReply, answer: StreamedAnswer) {
  const { freshness, etag } = answer;
  reply.header('cache-control', freshness.cacheControl);
  if (etag) reply.header('etag', etag);
  if (freshness.vary !== null) reply.header('vary', freshness.vary);
  if (etag && matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
    return reply.code(304).send(freshness.notModifiedPayload);
  }
  return reply.type(answer.contentType).send(await answer.body());
}
