import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import { type SiteKey, type SiteKeyKind, type SiteKeyOwner, toSiteKey } from './site-key';

const publicColumns = [
  'id',
  'site_id',
  'name',
  'kind',
  'key_prefix',
  'created_at',
  'revoked_at',
  'last_used_at',
] as const;

export async function siteExists(db: DbOrTx, siteId: string): Promise<boolean> {
  return (
    (await db.selectFrom('sites').select('id').where('id', '=', siteId).executeTakeFirst()) !== undefined
  );
}

export async function insertSiteKey(
  db: DbOrTx,
  key: { siteId: string; name: string; kind: SiteKeyKind; hash: Buffer; prefix: string },
): Promise<SiteKey> {
  const row = await db
    .insertInto('site_api_keys')
    .values({
      site_id: key.siteId,
      name: key.name,
      kind: key.kind,
      key_hash: key.hash,
      key_prefix: key.prefix,
    })
    .returning(publicColumns)
    .executeTakeFirstOrThrow();
  return toSiteKey(row);
}

/** The site's keys, newest first, revoked ones included (with their revocation time). */
export async function findSiteKeysOfSite(db: DbOrTx, siteId: string): Promise<SiteKey[]> {
  const rows = await db
    .selectFrom('site_api_keys')
    .select(publicColumns)
    .where('site_id', '=', siteId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toSiteKey);
}

/** Marks the key revoked (once: a revoked key keeps its first revocation time). False when the site has no such key. */
export async function revokeSiteKeyById(db: DbOrTx, siteId: string, keyId: string): Promise<boolean> {
  const row = await db
    .updateTable('site_api_keys')
    .set({ revoked_at: sql`coalesce(revoked_at, now())` })
    .where('id', '=', keyId)
    .where('site_id', '=', siteId)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The site that owns the unrevoked key with this sha256 digest, if any. */
export async function findSiteKeyOwnerByHash(db: DbOrTx, hash: Buffer): Promise<SiteKeyOwner | undefined> {
  return db
    .selectFrom('site_api_keys')
    .innerJoin('sites', 'sites.id', 'site_api_keys.site_id')
    .select([
      'site_api_keys.id as keyId',
      'sites.id as siteId',
      'sites.slug as siteSlug',
      'site_api_keys.kind as kind',
      'sites.allowed_origins as allowedOrigins',
    ])
    .where('site_api_keys.key_hash', '=', hash)
    .where('site_api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Marks the keys as used at `usedAt` (never moving a later time back). Touches only last_used_at, whose
 * updates send no content-change notification (migration 2026-11-23T1710): client caches stay warm.
 */
export async function recordSiteKeysUsed(db: DbOrTx, keyIds: readonly string[], usedAt: Date): Promise<void> {
  if (keyIds.length === 0) return;
  await db
    .updateTable('site_api_keys')
    .set({ last_used_at: sql`greatest(last_used_at, ${usedAt}::timestamptz)` })
    .where('id', 'in', [...keyIds])
    .execute();
}
