import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type {
  CreatedSiteKey,
  CreateSiteBody,
  EditSiteBody,
  Site,
  SiteKeyList,
  SiteList,
  SiteListItem,
} from '../../../lib/api-types';

// ['sites'] is the key other views read the site list under too (publisher settings): one cache entry.
export const siteKeys = {
  all: ['sites'] as const,
  keys: (siteId: string) => ['site-keys', siteId] as const,
};

export const siteListQuery = queryOptions({
  queryKey: siteKeys.all,
  queryFn: ({ signal }) => api.get<SiteList>('/site', {}, signal),
});

export const siteKeyListQuery = (siteId: string) =>
  queryOptions({
    queryKey: siteKeys.keys(siteId),
    queryFn: ({ signal }) => api.get<SiteKeyList>(`/site/${encodeURIComponent(siteId)}/keys`, {}, signal),
  });

function useSitesChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: siteKeys.all });
}

/** The form shows the API's field errors itself: no toast. */
export function useCreateSite() {
  const changed = useSitesChanged();
  return useMutation({
    mutationFn: (body: CreateSiteBody) => api.post<Site>('/site', body),
    onSuccess: changed,
    meta: { silent: true },
  });
}

export function useEditSite(id: string) {
  const changed = useSitesChanged();
  return useMutation({
    mutationFn: (body: EditSiteBody) => api.put<Site>(`/site/${encodeURIComponent(id)}`, body),
    onSuccess: changed,
    meta: { silent: true },
  });
}

export function useDeleteSite() {
  const changed = useSitesChanged();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/site/${encodeURIComponent(id)}`),
    onSuccess: changed,
  });
}

/** The answer holds the key itself, this once; it is kept only in the mutation's state, never cached. */
export function useCreateSiteKey(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      api.post<CreatedSiteKey>(`/site/${encodeURIComponent(siteId)}/keys`, { name }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: siteKeys.keys(siteId) }),
    meta: { silent: true },
  });
}

export function useRevokeSiteKey(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      api.delete(`/site/${encodeURIComponent(siteId)}/keys/${encodeURIComponent(keyId)}`),
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
