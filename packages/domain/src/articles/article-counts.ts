import type { ArticleStatus } from '../db/tables';

/** How many articles are in each status, and in all (a publisher's, or the whole listing's). */
export type ArticleCounts = Record<ArticleStatus, number> & { total: number };

export function toArticleCounts(rows: readonly { status: ArticleStatus; count: number }[]): ArticleCounts {
  const counts: ArticleCounts = { draft: 0, pending: 0, published: 0, rejected: 0, total: 0 };
  for (const { status, count } of rows) {
    counts[status] = count;
    counts.total += count;
  }
  return counts;
}
