import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import type { BodyOf, ResponseOf, Schema } from '../lib/api-shapes';

// Child sites and their client API keys: the site list is read under one key by every view that needs it
// (the sites page, article filters and host sites, publisher settings, webhook scopes).

export type Site = Schema<'Site'>;
export type SiteListItem = Schema<'SiteListItem'>;
export type SiteList = ResponseOf<'/api/v1/site', 'get'>;
export type CreateSiteBody = BodyOf<'/api/v1/site', 'post'>;
export type EditSiteBody = BodyOf<'/api/v1/site/{id}', 'put'>;
export type SiteKey = Schema<'SiteKey'>;
export type CreatedSiteKey = Schema<'CreatedSiteKey'>;

export const siteKeys = {
  all: ['sites'] as const,
  list: () => [...siteKeys.all, 'list'] as const,
  keys: (siteId: string) => ['site-keys', siteId] as const,
};

export const siteListQuery = queryOptions({
  queryKey: siteKeys.list(),
  queryFn: ({ signal }) => dataOf(api.GET('/api/v1/site', { signal })),
});

/** The same list offered as choices (filters, host sites, scopes): sites change rarely, forms open often. */
export const siteChoicesQuery = queryOptions({ ...siteListQuery, staleTime: 60_000 });

export const siteKeyListQuery = (siteId: string) =>
  queryOptions({
    queryKey: siteKeys.keys(siteId),
    queryFn: ({ signal }) =>
      dataOf(api.GET('/api/v1/site/{id}/keys', { params: { path: { id: siteId } }, signal })),
  });

function useSitesChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: siteKeys.all });
}

/** The form shows the API's field errors itself: no toast. */
export function useCreateSite() {
  const changed = useSitesChanged();
  return useMutation({
    mutationFn: (body: CreateSiteBody) => dataOf(api.POST('/api/v1/site', { body })),
    onSuccess: changed,
    meta: { silent: true },
  });
}

export function useEditSite(id: string) {
  const changed = useSitesChanged();
  return useMutation({
    mutationFn: (body: EditSiteBody) =>
      dataOf(api.PUT('/api/v1/site/{id}', { params: { path: { id } }, body })),
    onSuccess: changed,
    meta: { silent: true },
  });
}

export function useDeleteSite() {
  const changed = useSitesChanged();
  return useMutation({
    mutationFn: async (id: string) => {
      await api.DELETE('/api/v1/site/{id}', { params: { path: { id } } });
    },
    onSuccess: changed,
  });
}

/** The answer holds the key itself, this once; it is kept only in the mutation's state, never cached. */
export function useCreateSiteKey(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; kind: 'secret' | 'publishable' }) =>
      dataOf(api.POST('/api/v1/site/{id}/keys', { params: { path: { id: siteId } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: siteKeys.keys(siteId) }),
    meta: { silent: true },
  });
}

export function useRevokeSiteKey(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (keyId: string) => {
      await api.DELETE('/api/v1/site/{id}/keys/{keyId}', { params: { path: { id: siteId, keyId } } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: siteKeys.keys(siteId) }),
  });
}

export type SiteArticleCount = SiteListItem['articleCount'];

/**
 * How many articles the site carries, as GET /site reports it (`articleCount`); null for a site read
 * elsewhere (a create or edit answer carries no count), and the views then say less.
 */
export function articleCountOf(site: Site | SiteListItem): SiteArticleCount | null {
  return 'articleCount' in site ? site.articleCount : null;
}
