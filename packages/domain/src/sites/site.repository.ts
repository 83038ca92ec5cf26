import type { DbOrTx } from '../db/create-db';
import { DomainValidationError } from '../errors';
import { type Site, toSite } from './site';

export async function findSitesBySlugs(db: DbOrTx, slugs: readonly string[]): Promise<Site[]> {
  if (slugs.length === 0) return [];
  const rows = await db
    .selectFrom('sites')
    .selectAll()
    .where('slug', 'in', [...slugs])
    .execute();
  return rows.map(toSite);
}

/**
 * The ids of the sites named by `slugs`, or a DomainValidationError naming the first unknown one.
 * Used wherever a client names host sites (articles, publishers' default sites).
 */
export async function resolveSiteIds(db: DbOrTx, slugs: readonly string[]): Promise<string[]> {
  const unique = [...new Set(slugs)];
  const sites = await findSitesBySlugs(db, unique);
  const known = new Map(sites.map((site) => [site.slug, site.id]));
  const unknown = unique.filter((slug) => !known.has(slug));
  if (unknown.length > 0) {
    throw new DomainValidationError('UNKNOWN_SITE', `Unknown host site: ${unknown.join(', ')}`);
  }
  return unique.map((slug) => known.get(slug) as string);
}
