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

/** A decision's optional reason for the publisher, as the API takes it (blank: none sent). */
const reasonBody = (reason: string | undefined) => (reason?.trim() ? { reason: reason.trim() } : {});

/** After a decision or its undo: the queue, the badge, and the article lists and editors that show it. */
function invalidateReviewed(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
    queryClient.invalidateQueries({ queryKey: ['articles'] }),
  ]);
}

/** Approve or reject one article (the keyboard's a / r, the preview's buttons), with an optional reason. */
export function useReviewOne() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, reason }: { id: string; action: ReviewAction; reason?: string }) =>
      api.put<Article>(`/article/${action}/${encodeURIComponent(id)}`, reasonBody(reason)),
    onSettled: () => invalidateReviewed(queryClient),
  });
}

/** Approve or reject many in one request; the API answers per article. */
export function useReviewMany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, action, reason }: { ids: string[]; action: ReviewAction; reason?: string }) =>
      api.post<{ results: BulkResult[] }>('/article/bulk', { action, ids, ...reasonBody(reason) }),
    onSettled: () => invalidateReviewed(queryClient),
  });
}

/** Takes decisions back (the toast's Undo): the articles are pending again, one result each. */
export function useUndoReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) =>
      api.post<{ results: BulkResult[] }>('/article/bulk', { action: 'back-to-pending', ids }),
    onSettled: () => invalidateReviewed(queryClient),
  });
}

/** Publishers by name, for the queue's filter. */
export const reviewPublishersQuery = queryOptions({
  queryKey: ['publishers', 'list', { sort: 'name', limit: 100 }],
  queryFn: ({ signal }) => api.get<PublisherList>('/publisher', { sort: 'name', limit: 100 }, signal),
  staleTime: 60_000,
});
