import { defineConfig } from 'vitest/config';

// One project per workspace package; the global setup (Postgres template database,
// Redis URL) runs once for all of them.
export default defineConfig({
  test: {
    globalSetup: ['./packages/test-support/src/global-setup.ts'],
    projects: ['packages/*', 'apps/*'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
