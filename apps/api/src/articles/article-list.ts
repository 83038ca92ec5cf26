import {
  countFilteredArticlesByStatus,
  type Db,
  findArticleSummaries,
  type PolicyActor,
  resolveSiteIds,
} from '@newsroom/domain';
import type { ArticleListQuery, ArticleListResponse } from '../schemas/article.schema';
import { paginationMeta } from '../schemas/pagination.schema';

/**
 * The dashboard's article list: one page of summaries and the counts per status under the same filters
 * except status, two queries run alongside. The total is read off the counts (the status's, or all).
 * An unknown site slug is 400 UNKNOWN_SITE. `visibleTo`: only what that user may see (counts too).
 */
export async function listArticlesWithCounts(
  db: Db,
  query: ArticleListQuery,
  visibleTo?: PolicyActor,
): Promise<ArticleListResponse> {
  const { page, limit, status, site, origin, publisherId, tag, q } = query;
  const siteId = site === undefined ? undefined : (await resolveSiteIds(db, [site]))[0];
  const filter = { status, siteId, origin, publisherId, tag, titleContains: q, visibleTo };
  const [items, counts] = await Promise.all([
    findArticleSummaries(db, filter, { page, limit }),
    countFilteredArticlesByStatus(db, filter),
  ]);
  const total = status === undefined ? counts.total : counts[status];
  return { data: items, meta: { pagination: paginationMeta({ page, limit }, total), counts } };
}
