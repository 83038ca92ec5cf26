import { findAllAllowedOrigins } from '@newsroom/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error';
import { siteAccessScope } from './content-notifications';

// CORS for the client routes only (docs/client-api.md#browsers-cors). A site lists the origins whose pages
// may read its content (`allowedOrigins`); a response carries `Access-Control-Allow-Origin` only when the
// key's site allows the request's Origin. The network key never answers a browser. No credentials: the key
// travels in x-api-key, never in a cookie. The dashboard and admin routes never register any of this.

/** What a browser may send cross-origin: reads only. */
const allowedMethods = 'GET, HEAD';
/** Request headers a page may set: the key, revalidation, its correlation id. */
const allowedHeaders = 'x-api-key, if-none-match, x-request-id';
/** Response headers a page may read besides the safelisted ones. */
const exposedHeaders =
  'ETag, X-Request-Id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';
/**
 * How long a browser may reuse a preflight: 2 hours, Chromium's own cap. Removing an origin is not delayed
 * by it: the actual response then lacks Access-Control-Allow-Origin, and the browser blocks it.
 */
const preflightMaxAge = '7200';

/**
 * On a request whose key answers `allowedOrigins` (its scope's): the CORS headers when its Origin is one of
 * them.
 * One header lookup for the requests without Origin (servers); the allowed origins come with the memoised
 * grant (client-scope.ts), retired with it by any change of a site.
 */
export function allowOrigin(
  request: FastifyRequest,
  reply: FastifyReply,
  allowedOrigins: readonly string[],
): void {
  const origin = request.headers.origin;
  if (origin === undefined || !allowedOrigins.includes(origin)) return;
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-expose-headers', exposedHeaders);
}

/**
 * `OPTIONS /api/v1/client/*`: the preflight. It carries no key (browsers never send one in a preflight), so it
 * is answered for any origin some site allows, and for GET/HEAD only; the actual request then answers only
 * the key's own site's origins. An Origin no site allows: 403 CORS_ORIGIN_NOT_ALLOWED, without CORS headers.
 * A plain OPTIONS (not a preflight): 204 with `Allow`. Not in the OpenAPI document: transport, not an operation.
 */
export async function clientPreflightRoutes(app: FastifyInstance) {
  app.options('/*', { schema: { hide: true } }, async (request, reply) => {
    const origin = request.headers.origin;
    const method = request.headers['access-control-request-method'];
    reply.header('vary', 'origin, access-control-request-method, access-control-request-headers');
    if (origin === undefined || method === undefined) {
      return reply.code(204).header('allow', `${allowedMethods}, OPTIONS`).send();
    }
    const origins = await app.clientContent.allowedOrigins.get(siteAccessScope, 'all', async () => {
      return new Set(await findAllAllowedOrigins(app.db));
    });
    if (!origins.has(origin)) {
      throw new HttpError(
        403,
        'CORS_ORIGIN_NOT_ALLOWED',
        `No site allows the origin ${origin}: an administrator adds it to the site's allowedOrigins`,
      );
    }
    return reply
      .code(204)
      .header('access-control-allow-origin', origin)
      .header('access-control-allow-methods', allowedMethods)
      .header('access-control-allow-headers', allowedHeaders)
      .header('access-control-max-age', preflightMaxAge)
      .send();
  });
}
