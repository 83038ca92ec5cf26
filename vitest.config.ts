import { existsSync, readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// One project per workspace package that has tests. The global setup (Postgres template database,
// Redis URL) runs once for the whole run; timeouts are set per project (projects do not inherit them).
// The dashboard's project runs in jsdom with its own Vite config (React); its browser tests say
// `@vitest-environment node` themselves.
const dashboard = 'apps/dashboard';
const packages = ['apps', 'packages'].flatMap((folder) =>
  readdirSync(folder)
    .map((name) => `${folder}/${name}`)
    .filter((dir) => existsSync(`${dir}/test`)),
);

export default defineConfig({
  test: {
    globalSetup: ['./packages/test-support/src/global-setup.ts'],
    projects: packages.map((dir) => ({
      ...(dir === dashboard && { extends: `./${dashboard}/vite.config.ts` }),
      test: {
        name: `@newsroom/${dir.split('/')[1]}`,
        root: `./${dir}`,
        include: dir === dashboard ? ['test/**/*.test.{ts,tsx}'] : ['test/**/*.test.ts'],
        ...(dir === dashboard && { environment: './test/support/jsdom-environment.ts' }),
        testTimeout: 20_000,
        hookTimeout: 60_000,
      },
    })),
  },
});
