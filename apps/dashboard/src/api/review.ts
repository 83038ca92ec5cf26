import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import { articleKeys, fetchArticle, type VersionedArticle } from './articles';

// The review of pending articles: the queue (oldest first) and its count, and the decisions (approve,
// reject, take back), from the queue or from an article's editor.

/** One page of the queue: the oldest first, as the API orders it. */
export const reviewPageSize = 50;

export type ReviewAction = 'approve' | 'reject';
/** The review transitions of one article from its editor: decide, or take the decision back. */
export type ReviewTransition = ReviewAction | 'back-to-pending';

export const pendingQuery = (publisherId: string | undefined) =>
  queryOptions({
    queryKey: articleKeys.pending(publisherId),
    queryFn: ({ signal }) =>
      dataOf(
        api.GET('/api/v1/article/pending', {
          params: { query: { publisherId, limit: reviewPageSize } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** The number of pending articles, for the navigation's badge (one row read; the total is what counts). */
export const pendingCountQuery = queryOptions({
  queryKey: articleKeys.pendingCount(),
  queryFn: ({ signal }) =>
    dataOf(api.GET('/api/v1/article/pending', { params: { query: { limit: 1 } }, signal })),
  select: (page) => page.meta.pagination.total,
  refetchInterval: 60_000,
});

const transitionPaths = {
  approve: '/api/v1/article/approve/{id}',
  reject: '/api/v1/article/reject/{id}',
  'back-to-pending': '/api/v1/article/back-to-pending/{id}',
} as const;

/** A decision's optional reason for the publisher, as the API takes it (blank: none sent). */
const reasonBody = (reason: string | undefined) => (reason?.trim() ? { reason: reason.trim() } : {});

function decide(id: string, action: ReviewTransition, reason?: string) {
  return dataOf(api.PUT(transitionPaths[action], { params: { path: { id } }, body: reasonBody(reason) }));
}

/** After a decision or its undo: the queue, the badge, and the article lists and editors that show it. */
function useReviewed() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: articleKeys.all });
}

/** Approve or reject one article (the keyboard's a / r, the preview's buttons), with an optional reason. */
export function useReviewOne() {
  const reviewed = useReviewed();
  return useMutation({
    mutationFn: ({ id, action, reason }: { id: string; action: ReviewAction; reason?: string }) =>
      decide(id, action, reason),
    onSettled: reviewed,
  });
}

/** Approve or reject many in one request; the API answers per article. */
export function useReviewMany() {
  const reviewed = useReviewed();
  return useMutation({
    mutationFn: ({ ids, action, reason }: { ids: string[]; action: ReviewAction; reason?: string }) =>
      dataOf(api.POST('/api/v1/article/bulk', { body: { action, ids, ...reasonBody(reason) } })),
    onSettled: reviewed,
  });
}

/** Takes decisions back (the toast's Undo): the articles are pending again, one result each. */
export function useUndoReview() {
  const reviewed = useReviewed();
  return useMutation({
    mutationFn: (ids: string[]) =>
      dataOf(api.POST('/api/v1/article/bulk', { body: { action: 'back-to-pending', ids } })),
    onSettled: reviewed,
  });
}

/** A decision from the article's editor: the editor gets the new version to save against. */
export function useReviewTransition() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      id,
      action,
      reason,
    }: {
      id: string;
      action: ReviewTransition;
      reason?: string;
    }): Promise<VersionedArticle> => {
      await decide(id, action, reason);
      // Read back for the ETag the editor saves against.
      return fetchArticle(id);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(articleKeys.detail(saved.article.id), saved);
      // The lists, and the review queue with its count in the navigation (not the editor: it has the answer).
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: articleKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: articleKeys.reviewQueue() }),
      ]);
    },
  });
}
