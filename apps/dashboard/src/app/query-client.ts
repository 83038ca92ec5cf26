import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, isSessionExpired } from '../lib/api-error';

declare module '@tanstack/react-query' {
  interface Register {
    // silent: the form shows the error itself, no toast.
    mutationMeta: { silent?: boolean };
  }
}

export interface QueryEvents {
  /** Any request answered 401 UNAUTHORIZED: the session is gone. */
  onSessionExpired(): void;
  /** A mutation failed (not silent): tell the person. */
  onMutationError(error: unknown): void;
}

/** Client errors (4xx) are answers, not outages: they are not retried. */
const retryable = (failures: number, error: unknown) =>
  failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500);

export function createQueryClient(events: QueryEvents): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (isSessionExpired(error)) events.onSessionExpired();
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (isSessionExpired(error)) return events.onSessionExpired();
        if (!mutation.meta?.silent) events.onMutationError(error);
      },
    }),
    defaultOptions: {
      queries: { retry: retryable, staleTime: 15_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
