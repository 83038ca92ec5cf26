import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiExchange } from '../../../lib/api-client';
import type {
  Article,
  ArticleList,
  ArticleStatusCounts,
  BulkAction,
  BulkArticleResponse,
  CreateArticleBody,
  EditArticleBody,
  SiteList,
  SlugCheck,
} from '../../../lib/api-types';
import type { ArticlesSearch } from '../routes/articles-search';

export const pageSize = 20;

/** Per status, over the other filters (GET /article's meta.counts). */
export type StatusCounts = ArticleStatusCounts;
export type { ArticleList, BulkAction };
export type BulkResult = BulkArticleResponse;
export type SlugAvailability = SlugCheck;
/** An article as the editor loaded it, with the version to save against (`If-Match`). */
export interface VersionedArticle {
  article: Article;
  etag: string | null;
}

export const articleKeys = {
  all: ['articles'] as const,
  list: (search: ArticlesSearch) => ['articles', 'list', search] as const,
  detail: (id: string) => ['articles', 'detail', id] as const,
  slug: (slug: string, exceptId: string | undefined) => ['articles', 'slug', slug, exceptId ?? ''] as const,
};

/** The origin filter in the URL is `manual`, `imported` or a publisher id; the API takes them apart. */
function originQuery(origin: string | undefined) {
  if (origin === 'manual' || origin === 'imported') return { origin };
  return origin ? { publisherId: origin } : {};
}

export const articlesQuery = (search: ArticlesSearch) =>
  queryOptions({
    queryKey: articleKeys.list(search),
    queryFn: ({ signal }) =>
      api.get<ArticleList>(
        '/article',
        {
          status: search.status,
          site: search.site,
          tag: search.tag,
          q: search.q,
          ...originQuery(search.origin),
          page: search.page ?? 1,
          limit: pageSize,
        },
        signal,
      ),
    placeholderData: keepPreviousData,
  });

const articlePath = (id: string) => `/article/${encodeURIComponent(id)}`;

export async function fetchArticle(id: string, signal?: AbortSignal): Promise<VersionedArticle> {
  const { body, headers } = await apiExchange<Article>(articlePath(id), { signal });
  return { article: body, etag: headers.get('etag') };
}

export const articleQuery = (id: string) =>
  queryOptions({
    queryKey: articleKeys.detail(id),
    queryFn: ({ signal }) => fetchArticle(id, signal),
    // The editor starts from a fresh read (its version is what a save is checked against).
    staleTime: 0,
  });

export const slugAvailabilityQuery = (slug: string, exceptId: string | undefined) =>
  queryOptions({
    queryKey: articleKeys.slug(slug, exceptId),
    queryFn: ({ signal }) => api.get<SlugAvailability>('/article/slug-available', { slug, exceptId }, signal),
    staleTime: 5_000,
    retry: false,
  });

export const sitesQuery = queryOptions({
  queryKey: ['sites'],
  queryFn: ({ signal }) => api.get<SiteList>('/site', {}, signal),
  staleTime: 60_000,
});

export function useCreateArticle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateArticleBody) => api.post<Article>('/article', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['articles', 'list'] }),
    meta: { silent: true },
  });
}

export interface SaveArticle {
  id: string;
  changes: EditArticleBody;
  hostSites?: string[] | undefined;
  /** The version the changes were made on; null saves unconditionally (Overwrite). */
  ifMatch: string | null;
}

/** PUT the changed fields (with If-Match), then the host sites if they changed; answers the new version. */
export async function saveArticle({
  id,
  changes,
  hostSites,
  ifMatch,
}: SaveArticle): Promise<VersionedArticle> {
  let saved: VersionedArticle | null = null;
  if (Object.keys(changes).length > 0) {
    const { body, headers } = await apiExchange<Article>(articlePath(id), {
      method: 'PUT',
      body: changes,
      headers: ifMatch ? { 'if-match': ifMatch } : {},
    });
    saved = { article: body, etag: headers.get('etag') };
  }
  if (hostSites) {
    const { body, headers } = await apiExchange<Article>(`/article/host-site/${encodeURIComponent(id)}`, {
      method: 'POST',
      body: { hostSites },
    });
    saved = { article: body, etag: headers.get('etag') };
  }
  return saved ?? fetchArticle(id);
}

export function useSaveArticle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveArticle,
    onSuccess: (saved) => {
      queryClient.setQueryData(articleKeys.detail(saved.article.id), saved);
      return queryClient.invalidateQueries({ queryKey: ['articles', 'list'] });
    },
    meta: { silent: true },
  });
}

export type ArticleTransition = 'publish' | 'unpublish';

export function useArticleTransition() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: ArticleTransition }) => {
      await api.put<Article>(`/article/${action}/${encodeURIComponent(id)}`);
      return fetchArticle(id);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(articleKeys.detail(saved.article.id), saved);
      return queryClient.invalidateQueries({ queryKey: ['articles', 'list'] });
    },
  });
}

export function useDeleteArticle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(articlePath(id)),
    onSuccess: (_result, id) => {
      queryClient.removeQueries({ queryKey: articleKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: ['articles', 'list'] });
    },
  });
}

export function useBulkArticles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { action: BulkAction; ids: string[] }) => api.post<BulkResult>('/article/bulk', body),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: articleKeys.all }),
        // Approving (or taking it back) changes the review queue and its count in the navigation.
        queryClient.invalidateQueries({ queryKey: ['review'] }),
      ]),
  });
}
