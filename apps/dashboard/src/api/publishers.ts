import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import type { BodyOf, QueryOf, ResponseOf } from '../lib/api-shapes';

// Publishers as administrators see them: the list, one publisher with its feed and articles, the
// administrative actions, the feed test with the saved rules, and "Import now" with its job's state.

export type PublisherList = ResponseOf<'/api/v1/publisher', 'get'>;
export type Publisher = PublisherList['data'][number];
export type PublisherListQuery = QueryOf<'/api/v1/publisher', 'get'>;
export type PublisherDetail = ResponseOf<'/api/v1/publisher/{id}', 'get'>;
export type PublisherState = PublisherDetail['state'];
export type FeedHealth = PublisherDetail['feedHealth'];
export type ArticleCounts = PublisherDetail['articleCounts'];
export type CreatePublisherBody = BodyOf<'/api/v1/publisher', 'post'>;
export type UpdatePublisherBody = BodyOf<'/api/v1/publisher/{id}', 'put'>;
export type OwnArticles = ResponseOf<'/api/v1/publisher/{id}/articles', 'get'>;
export type PublisherArticle = OwnArticles['data'][number];
export type FeedPreview = ResponseOf<'/api/v1/publisher/{id}/test-feed', 'post'>;
export type PreviewArticle = FeedPreview['items'][number];
export type ImportStatus = ResponseOf<'/api/v1/publisher/{id}/import/{jobId}', 'get'>;

/** The filters of the publishers view (state, name or e-mail, page). */
export type PublisherFilters = Pick<PublisherListQuery, 'state' | 'q' | 'page'>;

export const pageSize = 20;

export const publisherKeys = {
  all: ['publishers'] as const,
  lists: () => [...publisherKeys.all, 'list'] as const,
  list: (filters: PublisherFilters) => [...publisherKeys.lists(), filters] as const,
  /** Every publisher by name, for a filter's choices (a list too: refreshed with the others). */
  choices: () => [...publisherKeys.lists(), { sort: 'name', limit: 100 }] as const,
  detail: (id: string) => [...publisherKeys.all, 'detail', id] as const,
  articles: (id: string) => [...publisherKeys.detail(id), 'articles'] as const,
  importJob: (id: string, jobId: string) => [...publisherKeys.detail(id), 'import', jobId] as const,
};

export const publishersQuery = (filters: PublisherFilters) =>
  queryOptions({
    queryKey: publisherKeys.list(filters),
    queryFn: ({ signal }) =>
      dataOf(
        api.GET('/api/v1/publisher', {
          params: { query: { state: filters.state, q: filters.q, page: filters.page ?? 1, limit: pageSize } },
          signal,
        }),
      ),
    // Keep the table on screen while the next page or filter loads.
    placeholderData: keepPreviousData,
  });

/** Publishers by name, for the filters of the articles and the review queue. */
export const publisherChoicesQuery = queryOptions({
  queryKey: publisherKeys.choices(),
  queryFn: ({ signal }) =>
    dataOf(api.GET('/api/v1/publisher', { params: { query: { sort: 'name', limit: 100 } }, signal })),
  staleTime: 60_000,
});

const byId = (id: string) => ({ params: { path: { id } } });

export const publisherQuery = (id: string) =>
  queryOptions({
    queryKey: publisherKeys.detail(id),
    queryFn: ({ signal }) => dataOf(api.GET('/api/v1/publisher/{id}', { ...byId(id), signal })),
  });

export const publisherArticlesQuery = (id: string) =>
  queryOptions({
    queryKey: publisherKeys.articles(id),
    queryFn: ({ signal }) =>
      dataOf(
        api.GET('/api/v1/publisher/{id}/articles', {
          params: { path: { id }, query: { limit: 10 } },
          signal,
        }),
      ),
  });

/** After a change to one publisher: its page shows the answer, and the lists are read again. */
function usePublisherSaved(refresh: readonly unknown[] = publisherKeys.all) {
  const queryClient = useQueryClient();
  return (publisher: PublisherDetail) => {
    queryClient.setQueryData(publisherKeys.detail(publisher.id), publisher);
    return queryClient.invalidateQueries({ queryKey: refresh });
  };
}

export type PublisherAction = 'approve' | 'disable' | 'enable';

/** Approve, disable or enable; the lists and the publisher's page are refreshed. */
export function usePublisherAction() {
  const saved = usePublisherSaved();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: PublisherAction }) =>
      dataOf(api.PUT(`/api/v1/publisher/{id}/${action}`, byId(id))),
    onSuccess: saved,
  });
}

export function useDeletePublisher() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await api.DELETE('/api/v1/publisher/{id}', byId(id));
    },
    onSuccess: (_result, id) => {
      queryClient.removeQueries({ queryKey: publisherKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: publisherKeys.all });
    },
  });
}

export function useCreatePublisher() {
  const saved = usePublisherSaved();
  return useMutation({
    mutationFn: (body: CreatePublisherBody) => dataOf(api.POST('/api/v1/publisher', { body })),
    onSuccess: saved,
  });
}

export function useUpdatePublisher(id: string) {
  const saved = usePublisherSaved(publisherKeys.lists());
  return useMutation({
    mutationFn: (body: UpdatePublisherBody) =>
      dataOf(api.PUT('/api/v1/publisher/{id}', { ...byId(id), body })),
    onSuccess: saved,
  });
}

export function useResetPublisherPassword(id: string) {
  return useMutation({
    mutationFn: async (password: string) => {
      await api.PUT('/api/v1/publisher/{id}/password', { ...byId(id), body: { password } });
    },
  });
}

/** Resumes a feed paused after repeated failures; the publisher's page and the lists are refreshed. */
export function useResumeFeed(id: string) {
  const saved = usePublisherSaved(publisherKeys.lists());
  return useMutation({
    mutationFn: () => dataOf(api.PUT('/api/v1/publisher/{id}/feed/resume', byId(id))),
    onSuccess: saved,
  });
}

/** A preview of the publisher's saved feed with its saved rules; saves nothing. Errors shown in place. */
export function usePublisherTestFeed(id: string) {
  return useMutation({
    mutationFn: () => dataOf(api.POST('/api/v1/publisher/{id}/test-feed', { ...byId(id), body: {} })),
    meta: { silent: true },
  });
}

/** The job states after which nothing changes any more. */
export const finishedImportStates: ReadonlySet<string> = new Set(['completed', 'failed']);
const pollEveryMs = 1_000;
/** Polling stops after this long; the view then says the outcome is not known yet. */
export const importPollLimitMs = 120_000;

export function useStartImport(publisherId: string) {
  return useMutation({
    mutationFn: () => dataOf(api.POST('/api/v1/publisher/{id}/import', byId(publisherId))),
  });
}

/** The job's state, polled every second until it ends (or for two minutes at most). */
export const importStatusQuery = (publisherId: string, jobId: string, startedAt: number) =>
  queryOptions({
    queryKey: publisherKeys.importJob(publisherId, jobId),
    queryFn: ({ signal }) =>
      dataOf(
        api.GET('/api/v1/publisher/{id}/import/{jobId}', {
          params: { path: { id: publisherId, jobId } },
          signal,
        }),
      ),
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      if (state && finishedImportStates.has(state)) return false;
      return Date.now() - startedAt < importPollLimitMs ? pollEveryMs : false;
    },
    staleTime: 0,
  });
