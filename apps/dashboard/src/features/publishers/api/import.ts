import { queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ImportJob, ImportStatus } from '../../../lib/api-types';

/** The job states after which nothing changes any more. */
export const finishedImportStates: ReadonlySet<string> = new Set(['completed', 'failed']);
const pollEveryMs = 1_000;
/** Polling stops after this long; the view then says the outcome is not known yet. */
export const importPollLimitMs = 120_000;

export function useStartImport(publisherId: string) {
  return useMutation({
    mutationFn: () => api.post<ImportJob>(`/publisher/${encodeURIComponent(publisherId)}/import`),
  });
}

/** The job's state, polled every second until it ends (or for two minutes at most). */
export const importStatusQuery = (publisherId: string, jobId: string, startedAt: number) =>
  queryOptions({
    queryKey: ['publishers', 'detail', publisherId, 'import', jobId],
    queryFn: ({ signal }) =>
      api.get<ImportStatus>(
        `/publisher/${encodeURIComponent(publisherId)}/import/${encodeURIComponent(jobId)}`,
        {},
        signal,
      ),
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      if (state && finishedImportStates.has(state)) return false;
      return Date.now() - startedAt < importPollLimitMs ? pollEveryMs : false;
    },
    staleTime: 0,
  });
