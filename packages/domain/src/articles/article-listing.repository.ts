import type { DbOrTx } from '../db/create-db';
import type { ArticleStatus } from '../db/tables';
import { offsetOf, type Page, type PageRequest } from '../shared/page';
import { hostSitesOf } from './article.repository';
import { type ArticleSummary, toArticleSummary } from './article-summary';

export interface ArticleFilter {
  status?: ArticleStatus;
  /** Case-insensitive substring of the title. */
  titleContains?: string;
}

/** `text` as a LIKE pattern matching itself literally: %, _ and the escape character lose their meaning. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

// Listings leave the body out: it can be hundreds of kilobytes, and a list only needs the headline data.
const summaryColumns = [
  'articles.id',
  'articles.title',
  'articles.slug',
  'articles.tags',
  'articles.category',
  'articles.section',
  'articles.thumbnail',
  'articles.image',
  'articles.status',
  'articles.is_aggregated',
  'articles.source',
  'articles.source_url',
  'articles.rss_feed_guid',
  'articles.publisher_id',
  'articles.published_at',
  'articles.source_published_at',
  'articles.created_at',
  'articles.updated_at',
] as const;

function filtered(db: DbOrTx, filter: ArticleFilter) {
  let query = db.selectFrom('articles');
  if (filter.status) query = query.where('articles.status', '=', filter.status);
  if (filter.titleContains) {
    // Postgres' default LIKE escape character is the backslash, which likeLiteral uses.
    query = query.where('articles.title', 'ilike', `%${likeLiteral(filter.titleContains)}%`);
  }
  return query;
}

/**
 * One page of articles matching `filter`, as summaries (no body).
 * `order`: newest first for the dashboard list, oldest first for the review queue.
 */
export async function listArticleSummaries(
  db: DbOrTx,
  filter: ArticleFilter,
  page: PageRequest,
  order: 'newest' | 'oldest' = 'newest',
): Promise<Page<ArticleSummary>> {
  const direction = order === 'newest' ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    filtered(db, filter)
      .select(summaryColumns)
      .select(hostSitesOf)
      .orderBy('articles.created_at', direction)
      .orderBy('articles.id', direction)
      .limit(page.limit)
      .offset(offsetOf(page))
      .execute(),
    filtered(db, filter)
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toArticleSummary), total: Number(count.total) };
}
