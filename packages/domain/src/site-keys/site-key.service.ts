import type { DbOrTx } from '../db/create-db';
import { NotFoundError } from '../errors';
import { generateSiteKey, type SiteKey, type SiteKeyKind } from './site-key';
import { findSiteKeysOfSite, insertSiteKey, revokeSiteKeyById, siteExists } from './site-key.repository';

/**
 * Creates a key of the kind for the site (secret unless told). The key is returned here once and stored only as
 * its sha256 digest.
 */
export async function createSiteKey(
  db: DbOrTx,
  siteId: string,
  name: string,
  kind: SiteKeyKind = 'secret',
): Promise<SiteKey & { secret: string }> {
  if (!(await siteExists(db, siteId))) throw new NotFoundError('site', siteId);
  const { secret, hash, prefix } = generateSiteKey(kind);
  const key = await insertSiteKey(db, { siteId, name, kind, hash, prefix });
  return { ...key, secret };
}

export async function listSiteKeys(db: DbOrTx, siteId: string): Promise<SiteKey[]> {
  if (!(await siteExists(db, siteId))) throw new NotFoundError('site', siteId);
  return findSiteKeysOfSite(db, siteId);
}

/** Revokes the key: client requests with it are refused from then on. Revoking twice is harmless. */
export async function revokeSiteKey(db: DbOrTx, siteId: string, keyId: string): Promise<void> {
  if (!(await revokeSiteKeyById(db, siteId, keyId))) throw new NotFoundError('site_key', keyId);
}
