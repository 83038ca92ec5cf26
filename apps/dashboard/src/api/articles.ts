import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import type { BodyOf, QueryOf, Schema } from '../lib/api-shapes';

// Articles as administrators edit them: the filtered list, one article with its version (ETag) for the
// editor, the slug check, and the changes (create, save with If-Match, publish, delete, bulk).

export type Article = Schema<'Article'>;
export type ArticleStatus = Article['status'];
export type ArticleSummary = Schema<'ArticleSummary'>;
export type ArticleList = Schema<'ArticleList'>;
type ArticleListQuery = QueryOf<'/api/v1/article', 'get'>;
/** Per status, over the other filters (GET /article's meta.counts). */
export type StatusCounts = ArticleList['meta']['counts'];
export type CreateArticleBody = BodyOf<'/api/v1/article', 'post'>;
export type EditArticleBody = BodyOf<'/api/v1/article/{id}', 'put'>;
export type BulkAction = BodyOf<'/api/v1/article/bulk', 'post'>['action'];
export type BulkResult = Schema<'BulkArticleResults'>;

/** An article as the editor loaded it, with the version to save against (`If-Match`). */
export interface VersionedArticle {
  article: Article;
  etag: string | null;
}

/** The filters of the articles view (its URL state). */
export interface ArticleFilters {
  status?: ArticleStatus | undefined;
  /** A child site's slug. */
  site?: string | undefined;
  /** `manual`, `imported`, or a publisher's id. */
  origin?: string | undefined;
  tag?: string | undefined;
  q?: string | undefined;
  page?: number | undefined;
}

export const pageSize = 20;

export const articleKeys = {
  all: ['articles'] as const,
  lists: () => [...articleKeys.all, 'list'] as const,
  list: (filters: ArticleFilters) => [...articleKeys.lists(), filters] as const,
  detail: (id: string) => [...articleKeys.all, 'detail', id] as const,
  slug: (slug: string, exceptId: string | undefined) =>
    [...articleKeys.all, 'slug', slug, exceptId ?? ''] as const,
  /** The review queue (GET /article/pending) and its count: pending articles, refreshed with the others. */
  reviewQueue: () => [...articleKeys.all, 'review'] as const,
  pending: (publisherId: string | undefined) =>
    [...articleKeys.reviewQueue(), 'pending', publisherId ?? 'all'] as const,
  pendingCount: () => [...articleKeys.reviewQueue(), 'count'] as const,
};

/** The origin filter in the URL is `manual`, `imported` or a publisher id; the API takes them apart. */
function originQuery(origin: string | undefined): Pick<ArticleListQuery, 'origin' | 'publisherId'> {
  if (origin === 'manual' || origin === 'imported') return { origin };
  return origin ? { publisherId: origin } : {};
}

export const articlesQuery = (filters: ArticleFilters) =>
  queryOptions({
    queryKey: articleKeys.list(filters),
    queryFn: ({ signal }) => {
      const { status, site, tag, q, origin, page } = filters;
      const query = { status, site, tag, q, ...originQuery(origin), page: page ?? 1, limit: pageSize };
      return dataOf(api.GET('/api/v1/article', { params: { query }, signal }));
    },
    placeholderData: keepPreviousData,
  });

const byId = (id: string) => ({ params: { path: { id } } });

/** An answer that carries one article, with its version (a failed one was thrown as ApiError). */
async function versioned(answer: Promise<{ data?: Article; response: Response }>): Promise<VersionedArticle> {
  const { data, response } = await answer;
  return { article: data as Article, etag: response.headers.get('etag') };
}

/** The article with its version: the `ETag` a save sends back as `If-Match`. */
export const fetchArticle = (id: string, signal?: AbortSignal): Promise<VersionedArticle> =>
  versioned(api.GET('/api/v1/article/{id}', { ...byId(id), signal }));

export const articleQuery = (id: string) =>
  queryOptions({
    queryKey: articleKeys.detail(id),
    queryFn: ({ signal }) => fetchArticle(id, signal),
    // The editor starts from a fresh read (its version is what a save is checked against).
    staleTime: 0,
  });

/** The same cache entry as the editor's, read for a preview (the review queue): the article alone. */
export const articlePreviewQuery = (id: string) =>
  queryOptions({
    queryKey: articleKeys.detail(id),
    queryFn: ({ signal }) => fetchArticle(id, signal),
    select: (versioned) => versioned.article,
  });

export const slugAvailabilityQuery = (slug: string, exceptId: string | undefined) =>
  queryOptions({
    queryKey: articleKeys.slug(slug, exceptId),
    queryFn: ({ signal }) =>
      dataOf(api.GET('/api/v1/article/slug-available', { params: { query: { slug, exceptId } }, signal })),
    staleTime: 5_000,
    retry: false,
  });

/** After a change to one article: its editor holds the new version, and the lists are read again. */
function useArticleSaved() {
  const queryClient = useQueryClient();
  return (saved: VersionedArticle) => {
    queryClient.setQueryData(articleKeys.detail(saved.article.id), saved);
    return queryClient.invalidateQueries({ queryKey: articleKeys.lists() });
  };
}

export function useCreateArticle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateArticleBody) => dataOf(api.POST('/api/v1/article', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: articleKeys.lists() }),
    meta: { silent: true },
  });
}

export interface SaveArticle {
  id: string;
  changes: EditArticleBody;
  hostSites?: string[] | undefined;
  /** The version the changes were made on; null saves unconditionally (Overwrite). */
  ifMatch: string | null;
  /** The editor's automatic save: its revisions collapse (one per person per few minutes). */
  autosave?: boolean | undefined;
}

/** PUT the changed fields (with If-Match), then the host sites if they changed; answers the new version. */
export async function saveArticle({
  id,
  changes,
  hostSites,
  ifMatch,
  autosave,
}: SaveArticle): Promise<VersionedArticle> {
  let saved: VersionedArticle | null = null;
  if (Object.keys(changes).length > 0) {
    saved = await versioned(
      api.PUT('/api/v1/article/{id}', {
        params: {
          path: { id },
          header: ifMatch ? { 'if-match': ifMatch } : {},
          ...(autosave && { query: { autosave: true } }),
        },
        body: changes,
      }),
    );
  }
  if (hostSites) {
    saved = await versioned(api.POST('/api/v1/article/host-site/{id}', { ...byId(id), body: { hostSites } }));
  }
  return saved ?? fetchArticle(id);
}

export function useSaveArticle() {
  const saved = useArticleSaved();
  return useMutation({ mutationFn: saveArticle, onSuccess: saved, meta: { silent: true } });
}

export type ArticleTransition = 'publish' | 'unpublish';

const transitionPaths = {
  publish: '/api/v1/article/publish/{id}',
  unpublish: '/api/v1/article/unpublish/{id}',
} as const;

export function useArticleTransition() {
  const saved = useArticleSaved();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: ArticleTransition }) => {
      await api.PUT(transitionPaths[action], byId(id));
      // Read back for the ETag the editor saves against.
      return fetchArticle(id);
    },
    onSuccess: saved,
  });
}

export function useDeleteArticle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await api.DELETE('/api/v1/article/{id}', byId(id));
    },
    onSuccess: (_result, id) => {
      queryClient.removeQueries({ queryKey: articleKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: articleKeys.lists() });
    },
  });
}

export function useBulkArticles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { action: BulkAction; ids: string[] }) =>
      dataOf(api.POST('/api/v1/article/bulk', { body })),
    onSettled: () =>
      // Every list, the editors, and the review queue with its count in the navigation.
      queryClient.invalidateQueries({ queryKey: articleKeys.all }),
  });
}
