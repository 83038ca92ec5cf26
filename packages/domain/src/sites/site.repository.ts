import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import type { NewSiteRow, SiteRowUpdate } from '../db/tables';
import { DomainValidationError } from '../errors';
import { type Site, type SiteWithArticleCount, toSite } from './site';

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

/** Every site, by slug. The network has tens of sites, not thousands: no pagination. */
export async function listSites(db: DbOrTx): Promise<Site[]> {
  const rows = await db.selectFrom('sites').selectAll().orderBy('slug').execute();
  return rows.map(toSite);
}

/**
 * Every site, by slug, with the number of articles linked to it and of those published. Both counts are
 * index-only scans per site (article_sites_site_idx; the partial article_sites_published_idx, whose
 * published_at copy is set exactly while the article is published).
 */
export async function listSitesWithArticleCounts(db: DbOrTx): Promise<SiteWithArticleCount[]> {
  const rows = await db
    .selectFrom('sites')
    .selectAll('sites')
    .select((eb) => [
      eb
        .selectFrom('article_sites')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('article_sites.site_id', '=', 'sites.id')
        .as('total'),
      eb
        .selectFrom('article_sites')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('article_sites.site_id', '=', 'sites.id')
        .where('article_sites.published_at', 'is not', null)
        .as('published'),
    ])
    .orderBy('slug')
    .execute();
  return rows.map((row) => ({
    ...toSite(row),
    articleCount: { total: row.total ?? 0, published: row.published ?? 0 },
  }));
}

export async function findSiteById(db: DbOrTx, id: string): Promise<Site | undefined> {
  const row = await db.selectFrom('sites').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toSite(row);
}

export async function insertSite(db: DbOrTx, row: NewSiteRow): Promise<Site> {
  return toSite(await db.insertInto('sites').values(row).returningAll().executeTakeFirstOrThrow());
}

/** Updates columns of one site; undefined when there is no such site. */
export async function updateSiteColumns(
  db: DbOrTx,
  id: string,
  patch: SiteRowUpdate,
): Promise<Site | undefined> {
  const row = await db
    .updateTable('sites')
    .set({ ...patch, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row && toSite(row);
}

/** Deletes a site; its article links, default-site links and API keys go with it (ON DELETE CASCADE). */
export async function deleteSiteById(db: DbOrTx, id: string): Promise<boolean> {
  const result = await db.deleteFrom('sites').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Every origin some site allows (CORS): what a preflight, which carries no key, may be answered for. */
export async function findAllAllowedOrigins(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .selectFrom('sites')
    .select(sql<string>`unnest(allowed_origins)`.as('origin'))
    .distinct()
    .execute();
  return rows.map((row) => row.origin);
}
