import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import type { BodyOf, Schema } from '../lib/api-shapes';
import { articleKeys, fetchArticle } from './articles';

// Scheduled publishing: actions (publish / unpublish at a time), releases, and an article's embargo.

export type ScheduledAction = Schema<'ScheduledAction'>;
export type Release = Schema<'Release'>;
export type ScheduleKind = BodyOf<'/api/v1/scheduled-actions', 'post'>['kind'];

export const scheduleKeys = {
  all: ['schedule'] as const,
  actions: (filter: { articleId?: string; from?: string; status?: string }) =>
    [...scheduleKeys.all, 'actions', filter] as const,
  releases: (filter: { from?: string; status?: string }) =>
    [...scheduleKeys.all, 'releases', filter] as const,
};

export const scheduledActionsQuery = (filter: { articleId?: string; from?: string; status?: string }) =>
  queryOptions({
    queryKey: scheduleKeys.actions(filter),
    queryFn: ({ signal }) =>
      dataOf(api.GET('/api/v1/scheduled-actions', { params: { query: filter }, signal })),
    select: (page) => page.data,
    refetchInterval: 15_000,
  });

export const releasesQuery = (filter: { from?: string; status?: string }) =>
  queryOptions({
    queryKey: scheduleKeys.releases(filter),
    queryFn: ({ signal }) => dataOf(api.GET('/api/v1/releases', { params: { query: filter }, signal })),
    select: (page) => page.data,
    refetchInterval: 15_000,
  });

/** After any scheduling change: the schedule and the articles (status, embargo) are read again. */
function useScheduleChanged() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: scheduleKeys.all }),
      queryClient.invalidateQueries({ queryKey: articleKeys.all }),
    ]);
}

export function useScheduleAction() {
  const changed = useScheduleChanged();
  return useMutation({
    mutationFn: (body: { articleId: string; kind: ScheduleKind; dueAt: string }) =>
      dataOf(api.POST('/api/v1/scheduled-actions', { body })),
    onSettled: changed,
  });
}

export function useRescheduleAction() {
  const changed = useScheduleChanged();
  return useMutation({
    mutationFn: ({ id, dueAt }: { id: string; dueAt: string }) =>
      dataOf(api.PUT('/api/v1/scheduled-actions/{id}', { params: { path: { id } }, body: { dueAt } })),
    onSettled: changed,
  });
}

export function useCancelAction() {
  const changed = useScheduleChanged();
  return useMutation({
    mutationFn: (id: string) =>
      dataOf(api.POST('/api/v1/scheduled-actions/{id}/cancel', { params: { path: { id } } })),
    onSettled: changed,
  });
}

export function useRescheduleRelease() {
  const changed = useScheduleChanged();
  return useMutation({
    mutationFn: ({ id, dueAt }: { id: string; dueAt: string }) =>
      dataOf(api.PUT('/api/v1/releases/{id}', { params: { path: { id } }, body: { dueAt } })),
    onSettled: changed,
  });
}

export function useCancelRelease() {
  const changed = useScheduleChanged();
  return useMutation({
    mutationFn: (id: string) =>
      dataOf(api.POST('/api/v1/releases/{id}/cancel', { params: { path: { id } } })),
    onSettled: changed,
  });
}

/** Sets or lifts (null) an article's embargo; answers the article with its new version. */
export function useSetEmbargo() {
  const changed = useScheduleChanged();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, embargoUntil }: { id: string; embargoUntil: string | null }) => {
      await api.PUT('/api/v1/article/{id}/embargo', { params: { path: { id } }, body: { embargoUntil } });
      return fetchArticle(id);
    },
    onSuccess: (saved) => queryClient.setQueryData(articleKeys.detail(saved.article.id), saved),
    onSettled: changed,
  });
}
