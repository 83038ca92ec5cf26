import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import type { BodyOf, QueryOf } from '../lib/api-shapes';
import type { PublisherDetail } from './publishers';

// The signed-in publisher's own account (/publisher/me): its feed, its articles, the feed test.

export type SaveFeedBody = BodyOf<'/api/v1/publisher/me/feed', 'put'>;
type OwnArticlesQuery = QueryOf<'/api/v1/publisher/me/articles', 'get'>;
export type OwnArticleStatus = OwnArticlesQuery['status'];

export const ownKeys = {
  all: ['me'] as const,
  me: ['me', 'publisher'] as const,
  articles: (status: OwnArticleStatus, page: number) => ['me', 'articles', status ?? 'all', page] as const,
};

export const ownPublisherQuery = queryOptions({
  queryKey: ownKeys.me,
  queryFn: ({ signal }) => dataOf(api.GET('/api/v1/publisher/me', { signal })),
});

export const ownArticlesQuery = (status: OwnArticleStatus, page: number) =>
  queryOptions({
    queryKey: ownKeys.articles(status, page),
    queryFn: ({ signal }) =>
      dataOf(
        api.GET('/api/v1/publisher/me/articles', { params: { query: { status, page, limit: 20 } }, signal }),
      ),
    placeholderData: keepPreviousData,
  });

function useOwnPublisherSaved() {
  const queryClient = useQueryClient();
  return (publisher: PublisherDetail) => queryClient.setQueryData(ownKeys.me, publisher);
}

export function useSaveFeed() {
  const saved = useOwnPublisherSaved();
  return useMutation({
    mutationFn: (body: SaveFeedBody) => dataOf(api.PUT('/api/v1/publisher/me/feed', { body })),
    onSuccess: saved,
  });
}

/** A preview of the first items; saves nothing. Errors are shown in the form (no toast). */
export function useTestFeed() {
  return useMutation({
    mutationFn: (feedUrl: string) =>
      dataOf(api.POST('/api/v1/publisher/me/test-feed', { body: { feedUrl } })),
    meta: { silent: true },
  });
}

/** Resumes the publisher's own feed after it was paused. */
export function useResumeOwnFeed() {
  const saved = useOwnPublisherSaved();
  return useMutation({
    mutationFn: () => dataOf(api.PUT('/api/v1/publisher/me/feed/resume')),
    onSuccess: saved,
  });
}
