import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { sessionQuery } from '../../src/api/session';

/**
 * A query cache of its own for the shared query modules (src/api/), with the hooks run inside it. Keys
 * are primed with a placeholder so that a test can see which ones a mutation invalidated.
 */
export function queryHarness() {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );

  return {
    queryClient,
    /** Runs a hook (a mutation) in this cache; `.current` is its latest value. */
    hook: <T,>(use: () => T) => renderHook(use, { wrapper }).result,
    /** Runs a mutation to its end: its answer, or the error it threw. */
    async run<V, R>(
      result: { current: { mutateAsync(variables: V): Promise<R> } },
      variables: V,
    ): Promise<R> {
      let answer: R | undefined;
      await act(async () => {
        answer = await result.current.mutateAsync(variables);
      });
      return answer as R;
    },
    /** Cached data under each key (no observer: an invalidation marks them and refetches nothing). */
    prime(...keys: QueryKey[]) {
      for (const key of keys) queryClient.setQueryData(key, { primed: key });
    },
    /** The primed keys an invalidation reached, in the order given. */
    invalidated: (...keys: QueryKey[]) => keys.filter((key) => queryClient.getQueryState(key)?.isInvalidated),
    /** Reads the session as the app does at start: the CSRF token is then in memory. */
    signedIn: () => queryClient.fetchQuery(sessionQuery),
  };
}
