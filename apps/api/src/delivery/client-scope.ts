import { timingSafeEqual } from 'node:crypto';
import { digestApiKey, findSiteKeyOwnerByHash, looksLikeSiteKey, resolveSiteIds } from '@newsroom/domain';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { HttpError } from '../http-error';
import { allowOrigin } from './client-cors';
import { siteAccessScope } from './content-notifications';

/** What a client key may read: the whole network (siteId null) or one site. */
export interface ClientScope {
  siteId: string | null;
  siteSlug: string | null;
  /** Browser origins the key answers (CORS, client-cors.ts): its site's; none for the network key. */
  allowedOrigins: readonly string[];
  /**
   * A publishable key (read-only, safe to expose): its answers are public with surrogate keys, and it is
   * refused by the change feed (`refusePublishableKey`). Network and secret keys: false.
   */
  publishable: boolean;
}

// The network key sees everything and must stay on servers: it answers no browser origin.
const networkScope: ClientScope = { siteId: null, siteSlug: null, allowedOrigins: [], publishable: false };
const maxKeyLength = 256;

/** The key of the request: the x-api-key header wins over the api_key query parameter. */
export function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  if (header !== undefined) return Array.isArray(header) ? header[0] : header;
  const query = request.query as Record<string, unknown> | undefined;
  const value = query?.api_key;
  return typeof value === 'string' ? value : undefined;
}

/** What a presented key was found to grant: a scope, and the site key's id (null: the network key). */
export interface KeyGrant {
  scope: ClientScope;
  keyId: string | null;
}

const networkGrant: KeyGrant = { scope: networkScope, keyId: null };

/**
 * The scope a key grants, or null. The answer is remembered by the presented key itself (`keyGrants`, one
 * memo per replica), so a known key costs one map lookup: no digest, no query. That memo is emptied by every
 * change of everything (every write to `sites` or `site_api_keys`, heard through LISTEN on every replica), so
 * a revoked key stops working as soon as the revocation is heard of, and it is bypassed while the
 * notifications connection is down. An unknown key is digested: the network key is compared digest to digest
 * in constant time; a site key is looked up by its digest (only the digest is stored).
 */
export async function scopeOfKey(request: FastifyRequest, key: string): Promise<ClientScope | null> {
  const grant = knownGrantOf(request, key) ?? (await grantOf(request, key));
  if (!grant) return null;
  if (grant.keyId !== null) request.server.siteKeyUsage.record(grant.keyId);
  return grant.scope;
}

/** The remembered grant of a key (null: known to grant nothing), or undefined when not remembered. */
function knownGrantOf(request: FastifyRequest, key: string): KeyGrant | null | undefined {
  return request.server.clientContent.keyGrants.peek(key);
}

async function grantOf(request: FastifyRequest, key: string): Promise<KeyGrant | null> {
  if (key.length === 0 || key.length > maxKeyLength) return null;
  const { networkKeyDigest, keyGrants } = request.server.clientContent;
  const digest = digestApiKey(key);
  if (timingSafeEqual(digest, networkKeyDigest)) {
    return keyGrants.get(siteAccessScope, key, async () => networkGrant);
  }
  // Anything not shaped like a site key is refused without a query, and not remembered.
  if (!looksLikeSiteKey(key)) return null;
  return keyGrants.get(siteAccessScope, key, async () => {
    const owner = await findSiteKeyOwnerByHash(request.server.db, digest);
    if (!owner) return null;
    const { siteId, siteSlug, allowedOrigins } = owner;
    const publishable = owner.kind === 'publishable';
    return { scope: { siteId, siteSlug, allowedOrigins, publishable }, keyId: owner.keyId };
  });
}

/**
 * The one onRequest hook of the client subtree: no valid key, no content. Missing, wrong and revoked keys
 * get the same 401, and count against the caller's address (429 RATE_LIMITED past the limit). Every client
 * response defaults to `no-store` (errors must not be cached); successful ones replace it with their
 * freshness headers. The client subtree has no helmet (see docs/http.md): JSON for servers needs only
 * the cheap static headers set here. A remembered key is let through synchronously (no promise per request).
 */
export function clientKeyGuard(
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  reply.headers(clientResponseHeaders);
  // A preflight carries no key: client-cors.ts answers it.
  if (request.method === 'OPTIONS') {
    done();
    return;
  }
  const key = presentedKey(request);
  const grant = key === undefined ? null : knownGrantOf(request, key);
  if (grant) {
    if (grant.keyId !== null) request.server.siteKeyUsage.record(grant.keyId);
    request.clientScope = grant.scope;
    allowOrigin(request, reply, grant.scope.allowedOrigins);
    done();
    return;
  }
  guardByLookup(request, reply, key).then(() => done(), done);
}

async function guardByLookup(request: FastifyRequest, reply: FastifyReply, key: string | undefined) {
  const scope = key === undefined ? null : await scopeOfKey(request, key);
  if (!scope) {
    await request.server.countFailedApiKey(request, reply);
    throw new HttpError(401, 'INVALID_API_KEY', 'Missing, invalid or revoked API key');
  }
  request.clientScope = scope;
  allowOrigin(request, reply, scope.allowedOrigins);
}

const clientResponseHeaders = {
  // Origin: whether CORS headers are sent depends on it (client-cors.ts).
  vary: 'x-api-key, origin',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  // JSON is never a document: nothing may load from it or frame it if a browser opens one.
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

/**
 * The site a request reads: its key's site, or with the network key the whole network unless `?site=`
 * narrows it. A site key naming another site is refused (403) rather than silently ignored.
 */
export async function siteIdInScope(
  request: FastifyRequest,
  siteSlug: string | undefined,
): Promise<string | null> {
  const known = knownSiteInScope(request, siteSlug);
  if (known !== undefined) return known.siteId;
  // Only the network key naming a site whose id is not remembered gets here.
  const slug = siteSlug as string;
  return request.server.clientContent.siteIds.get(siteAccessScope, slug, async () => {
    const [siteId] = await resolveSiteIds(request.server.db, [slug]);
    return siteId as string;
  });
}

/** Routes only secret keys may read (the change feed) refuse a publishable key with 403 SECRET_KEY_REQUIRED. */
export function refusePublishableKey(request: FastifyRequest): void {
  if (request.clientScope.publishable) {
    throw new HttpError(
      403,
      'SECRET_KEY_REQUIRED',
      'This route needs a secret key: publishable keys are refused',
    );
  }
}

/**
 * The site a request reads, with its slug (both null: the whole network): see siteIdInScope. A read of the
 * key's own scope gets that scope itself (no object per request); the network key naming a site, a new one.
 */
export async function siteInScope(
  request: FastifyRequest,
  siteSlug: string | undefined,
): Promise<{ siteId: string | null; siteSlug: string | null }> {
  const known = knownSiteInScope(request, siteSlug);
  if (known !== undefined) return known;
  const siteId = await siteIdInScope(request, siteSlug);
  return { siteId, siteSlug: siteSlug ?? null };
}

/**
 * siteInScope's answer when it needs no wait: every key's own scope (the scope itself, no object per request),
 * and the network key naming a site whose id is remembered; undefined when the id must be looked up. Lets a
 * cached read answer without a promise. A site key naming another site is refused here too (403).
 */
export function knownSiteInScope(
  request: FastifyRequest,
  siteSlug: string | undefined,
): { siteId: string | null; siteSlug: string | null } | undefined {
  const scope = request.clientScope;
  if (siteSlug === undefined) return scope;
  if (scope.siteId !== null) {
    if (siteSlug === scope.siteSlug) return scope;
    throw new HttpError(403, 'SITE_FORBIDDEN', 'This key reads only its own site');
  }
  const siteId = request.server.clientContent.siteIds.peek(siteSlug);
  return siteId === undefined ? undefined : { siteId, siteSlug };
}
