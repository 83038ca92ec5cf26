import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Article } from '../../../lib/api-types';
import { articleKeys, fetchArticle, type VersionedArticle } from './articles';

/** The review transitions of one article from its editor: decide, or take the decision back. */
export type ReviewTransition = 'approve' | 'reject' | 'back-to-pending';

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
      const body = reason?.trim() ? { reason: reason.trim() } : {};
      await api.put<Article>(`/article/${action}/${encodeURIComponent(id)}`, body);
      // Read back for the ETag the editor saves against.
      return fetchArticle(id);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(articleKeys.detail(saved.article.id), saved);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['articles', 'list'] }),
        // The review queue and its count in the navigation.
        queryClient.invalidateQueries({ queryKey: ['review'] }),
      ]);
    },
  });
}
