import {
  countFilteredArticlesByStatus,
  type Db,
  listArticleSummaries,
  resolveSiteIds,
} from '@newsroom/domain';
import type { ArticleListQuery, ArticleListResponse } from '../schemas/article.schema';
import { paginationMeta } from '../schemas/pagination.schema';

/**
 * The dashboard's article list: one page of summaries (page and total in one pair of queries) and the
 * counts per status under the same filters except status (one more query, run alongside).
 * An unknown site slug is 400 UNKNOWN_SITE.
 */
export async function listArticlesWithCounts(db: Db, query: ArticleListQuery): Promise<ArticleListResponse> {
  const { page, limit, status, site, origin, publisherId, tag, q } = query;
  const siteId = site === undefined ? undefined : (await resolveSiteIds(db, [site]))[0];
  const filter = { status, siteId, origin, publisherId, tag, titleContains: q };
  const [result, counts] = await Promise.all([
    listArticleSummaries(db, filter, { page, limit }),
    countFilteredArticlesByStatus(db, filter),
  ]);
  return {
    data: result.items,
    meta: { pagination: paginationMeta({ page, limit }, result.total), counts },
  };
}
