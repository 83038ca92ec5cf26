import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import { executePrepared } from '../db/prepared-statements';
import { type PublishedArticle, type PublishedArticleRow, toPublishedArticle } from './published-article';
import { publishedArticleColumns, rowVersion } from './published-article-columns';
import { published } from './published-filters';

// Published articles by key: one by slug (in a scope), several by id (with their row versions). Listings:
// listing-source.ts.

function selectPublishedArticle(db: DbOrTx) {
  return db.selectFrom('articles').select(publishedArticleColumns);
}

/** One published article by slug, if it is visible in the scope (`siteId` null: any site). */
export async function findPublishedArticleBySlug(
  db: DbOrTx,
  siteId: string | null,
  slug: string,
): Promise<PublishedArticle | undefined> {
  let query = selectPublishedArticle(db)
    .where('articles.slug', '=', slug)
    .where('articles.status', '=', published);
  if (siteId !== null) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('article_sites')
          .select(sql.lit(1).as('one'))
          .whereRef('article_sites.article_id', '=', 'articles.id')
          .where('article_sites.site_id', '=', siteId),
      ),
    );
  }
  const [row] = await executePrepared(db, query);
  return row && toPublishedArticle(row as PublishedArticleRow);
}

/** The published articles among `ids` (any order), each with its row version. */
export async function findPublishedArticlesByIds(
  db: DbOrTx,
  ids: readonly string[],
): Promise<Array<{ article: PublishedArticle; version: string }>> {
  if (ids.length === 0) return [];
  const query = db
    .selectFrom('articles')
    .select([...publishedArticleColumns, rowVersion.as('version')])
    .where('articles.id', '=', (eb) => eb.fn.any(eb.val([...ids])))
    .where('articles.status', '=', published);
  const rows = await executePrepared(db, query);
  return rows.map((row) => ({
    article: toPublishedArticle(row as PublishedArticleRow),
    version: row.version,
  }));
}
