import type { ArticleFilters, ArticleStatus } from '../../../api/articles';

// The /articles view's URL state (so filters survive reloads and links): the list's filters themselves.

export const articleStatuses = [
  'draft',
  'published',
  'pending',
  'rejected',
] as const satisfies readonly ArticleStatus[];

export type ArticlesSearch = ArticleFilters;

const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : undefined;

export function validateArticlesSearch(search: Record<string, unknown>): ArticlesSearch {
  const page = Number(search.page);
  return {
    status: articleStatuses.find((value) => value === search.status),
    site: text(search.site, 63),
    origin: text(search.origin, 64),
    tag: text(search.tag, 60),
    q: text(search.q, 200),
    page: Number.isInteger(page) && page > 1 ? Math.min(page, 1_000_000) : undefined,
  };
}
