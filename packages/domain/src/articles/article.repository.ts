import { type ExpressionBuilder, sql } from 'kysely';
import type { DbOrTx, Tx } from '../db/create-db';
import { executePrepared } from '../db/prepared-statements';
import type { ArticleRow, ArticleRowUpdate, ArticleStatus, Database, NewArticleRow } from '../db/tables';
import { toVersionedArticle, type VersionedArticle } from './article';

/** The article's host-site slugs, as one array column, sorted for stable output. */
export function hostSitesOf(eb: ExpressionBuilder<Database, 'articles'>) {
  return eb
    .selectFrom('article_sites')
    .innerJoin('sites', 'sites.id', 'article_sites.site_id')
    .whereRef('article_sites.article_id', '=', 'articles.id')
    .select(
      sql<string[]>`coalesce(array_agg(sites.slug order by sites.slug), array[]::text[])`.as('host_sites'),
    )
    .as('host_sites');
}

// Every column of `articles` the code maps, by name: `articles.*` would also send `search_vector`, the tsvector the
// search keeps and no code reads, whose text Postgres writes out for about 0.3 ms per 3 KB article.
const columnSet: Record<keyof ArticleRow, true> = {
  id: true,
  title: true,
  slug: true,
  body: true,
  tags: true,
  category: true,
  section: true,
  thumbnail: true,
  image: true,
  status: true,
  is_aggregated: true,
  source: true,
  source_url: true,
  rss_feed_guid: true,
  publisher_id: true,
  published_at: true,
  source_published_at: true,
  excerpt: true,
  reviewed_at: true,
  review_reason: true,
  embargo_until: true,
  created_by: true,
  submitted_by: true,
  bylines: true,
  standfirst: true,
  thumbnail_meta: true,
  image_meta: true,
  corrections: true,
  created_at: true,
  updated_at: true,
};

/** The columns of an article row (ArticleRow), complete by columnSet's type: what articleReadColumns is cut from. */
const articleColumns = Object.keys(columnSet) as (keyof ArticleRow)[];

/** The columns the admin read maps (toArticle): all but the excerpt. */
export const articleReadColumns = articleColumns.filter((column) => column !== 'excerpt') as (keyof Omit<
  ArticleRow,
  'excerpt'
>)[];

/** The row's version (see VersionedArticle): the writing transaction's id. */
export const rowVersion = sql<string>`articles.xmin::text`;

export async function findArticleById(db: DbOrTx, id: string): Promise<VersionedArticle | undefined> {
  const row = await db
    .selectFrom('articles')
    .select(articleReadColumns)
    .select(hostSitesOf)
    .select(rowVersion.as('version'))
    .where('articles.id', '=', id)
    .executeTakeFirst();
  return row && toVersionedArticle(row);
}

export async function insertArticle(db: DbOrTx, row: NewArticleRow): Promise<VersionedArticle> {
  const inserted = await db
    .insertInto('articles')
    .values(row)
    .returning(articleReadColumns)
    .returning(rowVersion.as('version'))
    .executeTakeFirstOrThrow();
  return toVersionedArticle({ ...inserted, host_sites: [] });
}

/**
 * Updates columns of one article; returns false when there is no such article, or when `versions` is
 * given and the row's version is none of them (compare-and-set: nothing is written then).
 */
export async function updateArticleColumns(
  db: DbOrTx,
  id: string,
  patch: ArticleRowUpdate,
  versions?: readonly string[],
): Promise<boolean> {
  let query = db
    .updateTable('articles')
    .set({ ...patch, updated_at: sql`now()` })
    .where('id', '=', id);
  if (versions !== undefined) {
    if (versions.length === 0) return false;
    query = query.where(rowVersion, 'in', [...versions]);
  }
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether an article with this id exists. */
export async function articleExists(db: DbOrTx, id: string): Promise<boolean> {
  return (await db.selectFrom('articles').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/**
 * Moves an article from one status to another, only if it is still in `from` (and, with `fromReviewed`,
 * still decided by a review): a concurrent change makes this return false instead of overwriting it.
 * One statement, so the change-outbox and NOTIFY triggers record it in this same transaction.
 */
export async function updateArticleStatus(
  db: DbOrTx,
  id: string,
  change: {
    from: ArticleStatus;
    to: ArticleStatus;
    publishedAt: Date | null;
    fromReviewed?: boolean;
    review?: { at: Date; reason: string | null } | null;
    /** Set on submit: who submitted it for review (other transitions leave it). */
    submittedBy?: string | null;
  },
): Promise<boolean> {
  let query = db
    .updateTable('articles')
    .set({
      status: change.to,
      published_at: change.publishedAt,
      reviewed_at: change.review?.at ?? null,
      review_reason: change.review?.reason ?? null,
      // A published article is never embargoed (articles_published_not_embargoed): publishing lifts it.
      ...(change.to === 'published' && { embargo_until: null }),
      ...(change.submittedBy !== undefined && { submitted_by: change.submittedBy }),
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('status', '=', change.from);
  if (change.fromReviewed) query = query.where('reviewed_at', 'is not', null);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteArticleById(db: DbOrTx, id: string): Promise<boolean> {
  const result = await db.deleteFrom('articles').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The slugs among `rows` that are one of the bases or a numbered variant of one. */
function numberedVariants(bases: readonly string[], rows: readonly { slug: string }[]): Set<string> {
  const numbered = [...new Set(bases)].map((base) => new RegExp(`^${base}(?:-[0-9]+)?$`));
  return new Set(
    rows.map((row) => row.slug).filter((slug) => numbered.some((pattern) => pattern.test(slug))),
  );
}

/**
 * Serialises slug allocation per base until the transaction ends, so two writers never pick the same
 * free slug, and returns the slugs in use among each base and its numbered variants (`base-2`, ...).
 * One round trip: the database function `lock_slug_bases_find_taken` (migration
 * 2026-11-24T0300-slug-lock-and-taken) takes the locks in sorted order (two batches cannot deadlock),
 * then reads the slugs with a snapshot taken after them, so it sees every slug committed by a writer
 * that held one of the locks.
 */
export async function lockAndFindTakenSlugs(tx: Tx, bases: readonly string[]): Promise<Set<string>> {
  const sorted = [...new Set(bases)].sort();
  if (sorted.length === 0) return new Set();
  const rows = await executePrepared(
    tx,
    tx.selectNoFrom(sql<string>`lock_slug_bases_find_taken(${sorted}::text[])`.as('slug')),
  );
  return numberedVariants(sorted, rows);
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

/** The id of the article using `slug`, if any. */
export async function findArticleIdBySlug(db: DbOrTx, slug: string): Promise<string | undefined> {
  const row = await db.selectFrom('articles').select('id').where('slug', '=', slug).executeTakeFirst();
  return row?.id;
}
