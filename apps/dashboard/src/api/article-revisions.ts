import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import type { Schema } from '../lib/api-shapes';
import { articleKeys } from './articles';

// An article's history: its revisions (who, when, from where), the diff of two, a restore.

export type RevisionSummary = Schema<'RevisionSummary'>;
export type RevisionDiff = Schema<'RevisionDiff'>;
export type RestoredArticle = Schema<'RestoredArticle'>;

export const revisionKeys = {
  all: (articleId: string) => [...articleKeys.all, 'revisions', articleId] as const,
  list: (articleId: string) => [...revisionKeys.all(articleId), 'list'] as const,
  diff: (articleId: string, from: number, to: number) =>
    [...revisionKeys.all(articleId), 'diff', from, to] as const,
};

export const historyPageSize = 20;

/**
 * The revisions, newest first, a page at a time by number (keyset: each next page is the revisions below
 * the oldest shown, so a revision recorded meanwhile shifts nothing and none is shown twice or skipped).
 */
export const revisionsQuery = (articleId: string) =>
  infiniteQueryOptions({
    queryKey: revisionKeys.list(articleId),
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam, signal }) =>
      dataOf(
        api.GET('/api/v1/article/{id}/revisions', {
          params: { path: { id: articleId }, query: { limit: historyPageSize, before: pageParam } },
          signal,
        }),
      ),
    getNextPageParam: (page) => {
      const oldest = page.data.at(-1)?.n;
      return page.data.length === historyPageSize && oldest !== undefined && oldest > 1 ? oldest : undefined;
    },
    staleTime: 0,
  });

export const revisionDiffQuery = (articleId: string, from: number, to: number) =>
  queryOptions({
    queryKey: revisionKeys.diff(articleId, from, to),
    queryFn: ({ signal }) =>
      dataOf(
        api.GET('/api/v1/article/{id}/revisions/diff', {
          params: { path: { id: articleId }, query: { from, to } },
          signal,
        }),
      ),
    // Revisions never change once written (a collapsed autosave is the newest only, and stale by then).
    staleTime: 60_000,
  });

/** The newest revision: who made the article's current version (the conflict prompt names them). */
export const newestRevisionQuery = (articleId: string) =>
  queryOptions({
    queryKey: [...revisionKeys.all(articleId), 'newest'] as const,
    queryFn: async ({ signal }) => {
      const page = await dataOf(
        api.GET('/api/v1/article/{id}/revisions', {
          params: { path: { id: articleId }, query: { page: 1, limit: 1 } },
          signal,
        }),
      );
      return page.data[0] ?? null;
    },
    staleTime: 0,
  });

/** Restores revision `n` (a new revision; the status never changes); the editor and history read again. */
export function useRestoreRevision(articleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ n, reason }: { n: number; reason?: string }) =>
      dataOf(
        api.POST('/api/v1/article/{id}/revisions/{n}/restore', {
          params: { path: { id: articleId, n } },
          body: reason ? { reason } : {},
        }),
      ),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: articleKeys.detail(articleId) }),
        queryClient.invalidateQueries({ queryKey: revisionKeys.all(articleId) }),
        queryClient.invalidateQueries({ queryKey: articleKeys.lists() }),
      ]),
  });
}
