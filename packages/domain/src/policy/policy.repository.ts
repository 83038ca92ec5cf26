import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import type { SiteRole } from '../db/tables';
import { findSitesBySlugs } from '../sites/site.repository';
import type { ArticleScope } from './policy';

/** A user's grants, read fresh (a change of grants is effective on the next request). */
export async function findGrantsOfUser(
  db: DbOrTx,
  userId: string,
): Promise<{ siteId: string; role: SiteRole }[]> {
  const rows = await db
    .selectFrom('user_site_grants')
    .select(['site_id', 'role'])
    .where('user_id', '=', userId)
    .execute();
  return rows.map((row) => ({ siteId: row.site_id, role: row.role }));
}

/** What the policy needs of an article (host sites, creator, status), or undefined when it does not exist. */
export async function findArticleScope(db: DbOrTx, id: string): Promise<ArticleScope | undefined> {
  const row = await db
    .selectFrom('articles')
    .select(['articles.created_by', 'articles.status'])
    .select((eb) =>
      eb
        .selectFrom('article_sites')
        .select((inner) => inner.fn.agg<string[]>('array_agg', ['article_sites.site_id']).as('ids'))
        .whereRef('article_sites.article_id', '=', 'articles.id')
        .as('site_ids'),
    )
    .where('articles.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  return { siteIds: row.site_ids ?? [], createdBy: row.created_by, status: row.status };
}

/** The ids of the sites with these slugs that exist (unknown slugs are the handler's 400). */
export async function findExistingSiteIds(db: DbOrTx, slugs: readonly string[]): Promise<string[]> {
  if (slugs.length === 0) return [];
  return (await findSitesBySlugs(db, [...new Set(slugs)])).map((site) => site.id);
}

/** Whether a site with this id exists. */
export async function siteExists(db: DbOrTx, id: string): Promise<boolean> {
  return (await db.selectFrom('sites').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/**
 * The articles a scheduled action (`scheduled-action`) or a release (`release`) acts on, or undefined when it
 * does not exist (the handler answers 404).
 */
export async function findScheduledArticleIds(
  db: DbOrTx,
  source: 'scheduled-action' | 'release',
  id: string,
): Promise<string[] | undefined> {
  const { rows } =
    source === 'scheduled-action'
      ? await sql<{ ids: string[] }>`
          select array[article_id] as ids from scheduled_actions where id = ${id}`.execute(db)
      : await sql<{ ids: string[] }>`
          select coalesce(array_agg(sa.article_id) filter (where sa.article_id is not null), '{}') as ids
            from releases r left join scheduled_actions sa on sa.release_id = r.id
           where r.id = ${id} group by r.id`.execute(db);
  return rows[0]?.ids;
}
