import { type ExpressionBuilder, sql } from 'kysely';
import type { DbOrTx, Tx } from '../db/create-db';
import type { ArticleRowUpdate, ArticleStatus, Database, NewArticleRow } from '../db/tables';
import { type Article, toArticle } from './article';

/** The article's host-site slugs, as one array column, sorted for stable output. */
export function hostSitesOf(eb: ExpressionBuilder<Database, 'articles'>) {
  return eb
    .selectFrom('article_sites')
    .innerJoin('sites', 'sites.id', 'article_sites.site_id')
    .whereRef('article_sites.article_id', '=', 'articles.id')
    .select(sql<string[]>`coalesce(array_agg(sites.slug order by sites.slug), '{}')`.as('host_sites'))
    .as('host_sites');
}

export async function findArticleById(db: DbOrTx, id: string): Promise<Article | undefined> {
  const row = await db
    .selectFrom('articles')
    .selectAll('articles')
    .select(hostSitesOf)
    .where('articles.id', '=', id)
    .executeTakeFirst();
  return row && toArticle(row);
}

export async function insertArticle(db: DbOrTx, row: NewArticleRow): Promise<Article> {
  const inserted = await db.insertInto('articles').values(row).returningAll().executeTakeFirstOrThrow();
  return toArticle({ ...inserted, host_sites: [] });
}

/** Updates columns of one article; returns false when there is no such article. */
export async function updateArticleColumns(
  db: DbOrTx,
  id: string,
  patch: ArticleRowUpdate,
): Promise<boolean> {
  const result = await db
    .updateTable('articles')
    .set({ ...patch, updated_at: sql`now()` })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Moves an article from one status to another, only if it is still in `from`
 * (a concurrent change makes this return false instead of overwriting it).
 */
export async function updateArticleStatus(
  db: DbOrTx,
  id: string,
  change: { from: ArticleStatus; to: ArticleStatus; publishedAt: Date | null },
): Promise<boolean> {
  const result = await db
    .updateTable('articles')
    .set({ status: change.to, published_at: change.publishedAt, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '=', change.from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteArticleById(db: DbOrTx, id: string): Promise<boolean> {
  const result = await db.deleteFrom('articles').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Slugs in use among `base` and its numbered variants (`base-2`, `base-3`, ...), for each base given. */
export async function findTakenSlugs(db: DbOrTx, bases: readonly string[]): Promise<Set<string>> {
  if (bases.length === 0) return new Set();
  const rows = await db
    .selectFrom('articles')
    .select('slug')
    .where((eb) =>
      eb.or(
        bases.flatMap((base) => [
          eb('slug', '=', base),
          // LIKE narrows with the unique index on slug; the regex keeps only numeric suffixes.
          eb.and([eb('slug', 'like', `${base}-%`), eb('slug', '~', `^${base}-[0-9]+$`)]),
        ]),
      ),
    )
    .execute();
  return new Set(rows.map((r) => r.slug));
}

/**
 * Serialises slug allocation per base until the transaction ends, so two writers never pick
 * the same free slug. Bases are locked in sorted order: two batches cannot deadlock.
 */
export async function lockSlugBases(tx: Tx, bases: readonly string[]): Promise<void> {
  for (const base of [...new Set(bases)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`slug:${base}`}, 0))`.execute(tx);
  }
}

/** Replaces the article's host sites with exactly `siteIds`. Needs a transaction: delete and insert go together. */
export async function replaceArticleSites(
  db: DbOrTx,
  articleId: string,
  siteIds: readonly string[],
): Promise<void> {
  await db.deleteFrom('article_sites').where('article_id', '=', articleId).execute();
  if (siteIds.length > 0) {
    await db
      .insertInto('article_sites')
      .values(siteIds.map((siteId) => ({ article_id: articleId, site_id: siteId })))
      .execute();
  }
  await db.updateTable('articles').set({ updated_at: sql`now()` }).where('id', '=', articleId).execute();
}
