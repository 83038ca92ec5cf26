import type { DbOrTx } from '../db/create-db';
import { isUniqueViolation } from '../db/pg-errors';
import type { SiteRowUpdate } from '../db/tables';
import { ConflictError, NotFoundError } from '../errors';
import { checkArticleUrlTemplate } from './article-url';
import type { Site } from './site';
import { deleteSiteById, findSiteById, insertSite, updateSiteColumns } from './site.repository';
import { normaliseAllowedOrigins, normalisePublicBaseUrl } from './site-public-urls';

/** What an administrator writes about a child site. */
export interface SiteFields {
  slug: string;
  name: string;
  domain: string | null;
  /** Default `en`. */
  language?: string;
  /** Default null (no syndication URLs until set). */
  articleUrlTemplate?: string | null;
  /** Browser origins allowed to read with the site's keys (CORS); default none. */
  allowedOrigins?: string[];
  /** Where the site serves its feeds and sitemaps; default null (the template's origin). */
  publicBaseUrl?: string | null;
}

/** The row columns of some fields, the allowed origins and public base normalised (or refused). */
function toRow(fields: Partial<SiteFields>): SiteRowUpdate {
  const { articleUrlTemplate, allowedOrigins, publicBaseUrl, ...rest } = fields;
  const row: SiteRowUpdate = { ...rest };
  if (articleUrlTemplate !== undefined) row.article_url_template = articleUrlTemplate;
  if (allowedOrigins !== undefined) row.allowed_origins = normaliseAllowedOrigins(allowedOrigins);
  if (publicBaseUrl !== undefined) {
    row.public_base_url = publicBaseUrl === null ? null : normalisePublicBaseUrl(publicBaseUrl);
  }
  return row;
}

const slugKey = 'sites_slug_key';

function slugTaken(slug: string | undefined) {
  return new ConflictError('SITE_SLUG_TAKEN', `Site slug ${slug} is already used by another site`);
}

export async function createSite(db: DbOrTx, fields: SiteFields): Promise<Site> {
  if (fields.articleUrlTemplate) checkArticleUrlTemplate(fields.articleUrlTemplate, fields.domain);
  const row = toRow(fields);
  try {
    return await insertSite(db, { ...row, slug: fields.slug, name: fields.name });
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
  if (patch.articleUrlTemplate !== undefined || patch.domain !== undefined) {
    // The template may use {domain}: check it against the domain the site will have.
    const current = await getSite(db, id);
    const template =
      patch.articleUrlTemplate === undefined ? current.articleUrlTemplate : patch.articleUrlTemplate;
    const domain = patch.domain === undefined ? current.domain : patch.domain;
    if (template !== null) checkArticleUrlTemplate(template, domain);
  }
  let site: Site | undefined;
  const row = toRow(patch);
  try {
    site = await updateSiteColumns(db, id, row);
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
