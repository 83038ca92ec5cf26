import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach } from 'vitest';
import { sessionQuery } from '../../src/api/session';
import { setCsrfToken } from '../../src/lib/csrf-token';

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

/**
 * A fresh harness per test, signed in as a new administrator (cookie and CSRF token), for a test file
 * that set up the API with `setUpDashboardApi`; the token is forgotten after each test.
 */
export function adminHarnessPerTest(server: {
  insertAdmin(): Promise<{ email: string }>;
  signIn(email: string): Promise<void>;
}): () => ReturnType<typeof queryHarness> {
  let harness = queryHarness();
  beforeEach(async () => {
    harness = queryHarness();
    const admin = await server.insertAdmin();
    await server.signIn(admin.email);
    await harness.signedIn();
  });
  afterEach(() => setCsrfToken(null));
  return () => harness;
}
