import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import { insertAdmin, insertPublisher } from '../../../api/test/support/dashboard-accounts';
import { createTestApp } from '../../../api/test/support/test-app';
import { injectFetch } from './api-fetch';

export const password = 'correct horse battery staple';

// The API answers from Postgres on a shared 2-core machine: give findBy*/waitFor more than the default 1 s.
configure({ asyncUtilTimeout: 10_000 });

/**
 * The real API on this file's own database and Redis prefix, wired in as the dashboard's fetch.
 * Each test starts signed out, with a fresh cookie jar.
 */
export async function setUpDashboardApi(
  env: Record<string, string> = {},
  options: Pick<Parameters<typeof createTestApp>[0] & object, 'storage'> = {},
) {
  const testApp = await createTestApp({ env, ...options });
  let api = injectFetch(testApp.app);

  beforeEach(() => {
    api = injectFetch(testApp.app);
    vi.stubGlobal('fetch', api.fetch);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
  afterAll(() => testApp.close());

  return {
    ...testApp,
    api: () => api,
    insertAdmin: () => insertAdmin(testApp.app, testApp.db, { password }),
    insertPublisher: (options: { name?: string; approved?: boolean } = {}) =>
      insertPublisher(testApp.app, testApp.db, { ...options, password }),
    /** Signs in through the API (the cookie lands in the jar) before the dashboard is rendered. */
    async signIn(email: string) {
      const response = await api.fetch('/api/v1/auth/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      if (response.status !== 200)
        throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
    },
  };
}
