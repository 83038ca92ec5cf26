import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Article, ArticleSummaryPage, BulkArticleResult, PublisherList } from '../../../lib/api-types';

/** One page of the queue: the oldest first, as the API orders it. */
export const reviewPageSize = 50;

export type ReviewAction = 'approve' | 'reject';

export const reviewKeys = {
  all: ['review'] as const,
  pending: (publisherId: string | undefined) => ['review', 'pending', publisherId ?? 'all'] as const,
  count: ['review', 'count'] as const,
  article: (id: string) => ['articles', 'detail', id] as const,
};

export const pendingQuery = (publisherId: string | undefined) =>
  queryOptions({
    queryKey: reviewKeys.pending(publisherId),
    queryFn: ({ signal }) =>
      api.get<ArticleSummaryPage>('/article/pending', { publisherId, limit: reviewPageSize }, signal),
    placeholderData: keepPreviousData,
  });

/** The number of pending articles, for the navigation's badge (one row read; the total is what counts). */
export const pendingCountQuery = queryOptions({
  queryKey: reviewKeys.count,
  queryFn: ({ signal }) => api.get<ArticleSummaryPage>('/article/pending', { limit: 1 }, signal),
  select: (page) => page.meta.pagination.total,
  refetchInterval: 60_000,
});

/** The full article (with its body) for the preview. */
export const reviewArticleQuery = (id: string) =>
  queryOptions({
    queryKey: reviewKeys.article(id),
    queryFn: ({ signal }) => api.get<Article>(`/article/${encodeURIComponent(id)}`, {}, signal),
  });

export type BulkResult = BulkArticleResult;

/** Approve or reject one article (the keyboard's a / r, the preview's buttons). */
export function useReviewOne() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: ReviewAction }) =>
      api.put<Article>(`/article/${action}/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
  });
}

/** Approve or reject many in one request; the API answers per article. */
export function useReviewMany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, action }: { ids: string[]; action: ReviewAction }) =>
      api.post<{ results: BulkResult[] }>('/article/bulk', { action, ids }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
  });
}

/** Publishers by name, for the queue's filter. */
export const reviewPublishersQuery = queryOptions({
  queryKey: ['publishers', 'list', { sort: 'name', limit: 100 }],
  queryFn: ({ signal }) => api.get<PublisherList>('/publisher', { sort: 'name', limit: 100 }, signal),
  staleTime: 60_000,
});
