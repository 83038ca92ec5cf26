import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import type { BodyOf, Schema } from '../lib/api-shapes';

// An article's preview links (issue 29): the live ones (never their tokens), a new one (its token shown once),
// revoke.

export type PreviewLink = Schema<'PreviewLink'>;
export type CreatedPreviewLink = Schema<'CreatedPreviewLink'>;
export type CreatePreviewLinkBody = BodyOf<'/api/v1/article/{id}/preview-links', 'post'>;

export const previewLinkKeys = {
  all: ['preview-links'] as const,
  ofArticle: (articleId: string) => [...previewLinkKeys.all, articleId] as const,
};

export const previewLinkListQuery = (articleId: string) =>
  queryOptions({
    queryKey: previewLinkKeys.ofArticle(articleId),
    queryFn: ({ signal }) =>
      dataOf(api.GET('/api/v1/article/{id}/preview-links', { params: { path: { id: articleId } }, signal })),
  });

/** The answer holds the token itself, this once; it is kept only in the mutation's state, never cached. */
export function useCreatePreviewLink(articleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePreviewLinkBody) =>
      dataOf(api.POST('/api/v1/article/{id}/preview-links', { params: { path: { id: articleId } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: previewLinkKeys.ofArticle(articleId) }),
  });
}

export function useRevokePreviewLink(articleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (linkId: string) => {
      await api.DELETE('/api/v1/article/{id}/preview-links/{linkId}', {
        params: { path: { id: articleId, linkId } },
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: previewLinkKeys.ofArticle(articleId) }),
  });
}
