import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import type { ArticleStatus } from '../db/tables';
import { type Actor, grantedSiteIds } from '../policy/policy';
import { offsetOf, type Page, type PageRequest } from '../shared/page';
import { hostSitesOf } from './article.repository';
import { type ArticleCounts, toArticleCounts } from './article-counts';
import { type ArticleSummary, toArticleSummary } from './article-summary';

export interface ArticleFilter {
  status?: ArticleStatus;
  /** Case-insensitive substring of the title. */
  titleContains?: string;
  /** Only articles linked to this child site. */
  siteId?: string;
  /** Written by hand (`manual`) or imported from a feed (`imported`). */
  origin?: 'manual' | 'imported';
  publisherId?: string;
  /** A tag, compared case-insensitively and exactly. */
  tag?: string;
  /** Only what this user may see (the policy's `visible` rule, in the query so paging stays right). */
  visibleTo?: Actor;
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
  'articles.thumbnail_meta',
  'articles.image_meta',
  'articles.bylines',
  'articles.standfirst',
  'articles.corrections',
  'articles.status',
  'articles.is_aggregated',
  'articles.source',
  'articles.source_url',
  'articles.rss_feed_guid',
  'articles.publisher_id',
  'articles.published_at',
  'articles.source_published_at',
  'articles.reviewed_at',
  'articles.review_reason',
  'articles.embargo_until',
  'articles.created_by',
  'articles.submitted_by',
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
  if (filter.origin) query = query.where('articles.is_aggregated', '=', filter.origin === 'imported');
  if (filter.publisherId) query = query.where('articles.publisher_id', '=', filter.publisherId);
  if (filter.tag !== undefined) {
    // The expression of the GIN index articles_tags_lower_idx (migration 2026-11-23T1700), repeated literally.
    query = query.where(sql<boolean>`article_tags_lower(articles.tags) @> array[lower(${filter.tag})]`);
  }
  const actor = filter.visibleTo;
  if (actor && actor.role !== 'admin') {
    const editorSites = grantedSiteIds(actor, ['editor']);
    const anySites = grantedSiteIds(actor);
    query = query.where((eb) => {
      const onSites = (siteIds: string[]) =>
        eb
          .selectFrom('article_sites')
          .select('article_sites.article_id')
          .whereRef('article_sites.article_id', '=', 'articles.id')
          .where('article_sites.site_id', 'in', siteIds);
      return eb.or([
        eb('articles.created_by', '=', actor.id),
        ...(editorSites.length > 0 ? [eb.exists(onSites(editorSites))] : []),
        ...(anySites.length > 0
          ? [eb.and([eb('articles.status', '<>', 'draft'), eb.exists(onSites(anySites))])]
          : []),
      ]);
    });
  }
  const { siteId } = filter;
  if (siteId) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('article_sites')
          .select('article_sites.article_id')
          .whereRef('article_sites.article_id', '=', 'articles.id')
          .where('article_sites.site_id', '=', siteId),
      ),
    );
  }
  return query;
}

/** The number of articles in each status among those matching `filter` (its status, if any, is ignored). */
export async function countFilteredArticlesByStatus(
  db: DbOrTx,
  filter: ArticleFilter,
): Promise<ArticleCounts> {
  const rows = await filtered(db, { ...filter, status: undefined })
    .select(['articles.status', sql<number>`count(*)::int`.as('count')])
    .groupBy('articles.status')
    .execute();
  return toArticleCounts(rows);
}

/**
 * One page of articles matching `filter`, as summaries (no body), without the total.
 * `order`: newest first for the dashboard list, oldest first for the review queue.
 */
export async function findArticleSummaries(
  db: DbOrTx,
  filter: ArticleFilter,
  page: PageRequest,
  order: 'newest' | 'oldest' = 'newest',
): Promise<ArticleSummary[]> {
  const direction = order === 'newest' ? 'desc' : 'asc';
  const rows = await filtered(db, filter)
    .select(summaryColumns)
    .select(hostSitesOf)
    .orderBy('articles.created_at', direction)
    .orderBy('articles.id', direction)
    .limit(page.limit)
    .offset(offsetOf(page))
    .execute();
  return rows.map(toArticleSummary);
}

/** One page of articles matching `filter` (see findArticleSummaries) and how many match in all. */
export async function listArticleSummaries(
  db: DbOrTx,
  filter: ArticleFilter,
  page: PageRequest,
  order: 'newest' | 'oldest' = 'newest',
): Promise<Page<ArticleSummary>> {
  const [items, count] = await Promise.all([
    findArticleSummaries(db, filter, page, order),
    filtered(db, filter)
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}
