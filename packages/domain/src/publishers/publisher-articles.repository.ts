import { sql } from 'kysely';
import { type ArticleCounts, toArticleCounts } from '../articles/article-counts';
import type { DbOrTx } from '../db/create-db';
import type { ArticleStatus } from '../db/tables';
import { offsetOf, type Page, type PageRequest } from '../shared/page';
import { type PublisherArticle, publisherArticleColumns, toPublisherArticle } from './publisher-article';

/** How many of the publisher's articles are in each status. */
export async function countArticlesByStatus(db: DbOrTx, publisherId: string): Promise<ArticleCounts> {
  const rows = await db
    .selectFrom('articles')
    .select(['status', sql<number>`count(*)::int`.as('count')])
    .where('publisher_id', '=', publisherId)
    .groupBy('status')
    .execute();
  return toArticleCounts(rows);
}

/** One page of the publisher's articles, newest first, optionally of one status. */
export async function findArticlesOfPublisher(
  db: DbOrTx,
  publisherId: string,
  filter: { status?: ArticleStatus },
  page: PageRequest,
): Promise<Page<PublisherArticle>> {
  let query = db.selectFrom('articles').where('publisher_id', '=', publisherId);
  if (filter.status) query = query.where('status', '=', filter.status);
  const [rows, counted] = await Promise.all([
    query
      .select(publisherArticleColumns)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(offsetOf(page))
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toPublisherArticle), total: Number(counted.total) };
}

/**
 * Articles per publisher per calendar month (UTC) of their creation (import) time, in [from, until).
 * Articles whose publisher was deleted have no publisher_id and are not counted.
 */
export async function countArticlesByPublisherAndMonth(
  db: DbOrTx,
  from: Date,
  until: Date,
): Promise<{ publisherId: string; month: string; count: number }[]> {
  const month = sql<string>`to_char(articles.created_at at time zone 'UTC', 'YYYY-MM')`;
  const rows = await db
    .selectFrom('articles')
    .select([
      sql<string>`articles.publisher_id`.as('publisher_id'),
      month.as('month'),
      sql<number>`count(*)::int`.as('count'),
    ])
    .where('articles.publisher_id', 'is not', null)
    .where('articles.created_at', '>=', from)
    .where('articles.created_at', '<', until)
    .groupBy(['articles.publisher_id', month])
    .execute();
  return rows.map((row) => ({ publisherId: row.publisher_id, month: row.month, count: row.count }));
}
