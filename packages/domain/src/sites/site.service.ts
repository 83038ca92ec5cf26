import type { DbOrTx } from '../db/create-db';
import { isUniqueViolation } from '../db/pg-errors';
import { ConflictError, NotFoundError } from '../errors';
import type { Site } from './site';
import { deleteSiteById, findSiteById, insertSite, updateSiteColumns } from './site.repository';

/** What an administrator writes about a child site. */
export interface SiteFields {
  slug: string;
  name: string;
  domain: string | null;
}

const slugKey = 'sites_slug_key';

function slugTaken(slug: string | undefined) {
  return new ConflictError('SITE_SLUG_TAKEN', `Site slug ${slug} is already used by another site`);
}

export async function createSite(db: DbOrTx, fields: SiteFields): Promise<Site> {
  try {
    return await insertSite(db, fields);
  } catch (error) {
    if (isUniqueViolation(error, slugKey)) throw slugTaken(fields.slug);
    throw error;
  }
}

export async function getSite(db: DbOrTx, id: string): Promise<Site> {
  const site = await findSiteById(db, id);
  if (!site) throw new NotFoundError('site', id);
  return site;
}

/**
 * Edits a site. Renaming its slug is allowed: articles link to sites by id,
 * so their hostSites show the new slug at once.
 */
export async function editSite(db: DbOrTx, id: string, patch: Partial<SiteFields>): Promise<Site> {
  let site: Site | undefined;
  try {
    site = await updateSiteColumns(db, id, patch);
  } catch (error) {
    if (isUniqueViolation(error, slugKey)) throw slugTaken(patch.slug);
    throw error;
  }
  if (!site) throw new NotFoundError('site', id);
  return site;
}

export async function deleteSite(db: DbOrTx, id: string): Promise<void> {
  if (!(await deleteSiteById(db, id))) throw new NotFoundError('site', id);
}
