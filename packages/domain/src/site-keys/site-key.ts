import { createHash, randomBytes } from 'node:crypto';
import type { SiteApiKeyRow, SiteKeyKind } from '../db/tables';

export type { SiteKeyKind };

/** A site's API key as administrators see it: never the secret, only a recognisable prefix. */
export interface SiteKey {
  id: string;
  siteId: string;
  name: string;
  /** secret: server-side only, private answers; publishable: read-only, safe in a browser, cacheable by a CDN. */
  kind: SiteKeyKind;
  /** The first characters of the key, to tell keys apart in lists and logs. */
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  /** When a client request last presented the key (recorded within about a minute), null if never. */
  lastUsedAt: Date | null;
}

/** Who a valid client key belongs to. */
export interface SiteKeyOwner {
  keyId: string;
  siteId: string;
  siteSlug: string;
  kind: SiteKeyKind;
  /** The site's allowed browser origins (CORS). */
  allowedOrigins: string[];
}

export const siteKeyPrefix = 'nsk_';
/** Publishable keys say so in their first characters (as Stripe's pk_): anyone can tell it may be exposed. */
export const publishableKeyPrefix = 'npk_';
const prefixLength = siteKeyPrefix.length + 8;

/** sha256 of a presented key: what is stored, looked up and compared; the key itself never is. */
export function digestApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** Whether `key` has the shape of a site key (so anything else is refused without a database lookup). */
export function looksLikeSiteKey(key: string): boolean {
  return /^n[sp]k_[A-Za-z0-9_-]{43}$/.test(key);
}

/** A new random site key (256 bits), with the digest and prefix to store. */
export function generateSiteKey(kind: SiteKeyKind = 'secret'): {
  secret: string;
  hash: Buffer;
  prefix: string;
} {
  const secret = `${kind === 'publishable' ? publishableKeyPrefix : siteKeyPrefix}${randomBytes(32).toString('base64url')}`;
  return { secret, hash: digestApiKey(secret), prefix: secret.slice(0, prefixLength) };
}

export function toSiteKey(row: Omit<SiteApiKeyRow, 'key_hash'>): SiteKey {
  return {
    id: row.id,
    siteId: row.site_id,
    name: row.name,
    kind: row.kind,
    prefix: row.key_prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}
