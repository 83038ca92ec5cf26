import { existsSync, readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// One project per workspace package that has tests. The global setup (Postgres template database,
// Redis URL) runs once for the whole run; timeouts are set per project (projects do not inherit them).
const packages = ['apps', 'packages'].flatMap((folder) =>
  readdirSync(folder)
    .map((name) => `${folder}/${name}`)
    .filter((dir) => existsSync(`${dir}/test`)),
);

export default defineConfig({
  test: {
    globalSetup: ['./packages/test-support/src/global-setup.ts'],
    projects: packages.map((dir) => ({
      test: {
        name: `@newsroom/${dir.split('/')[1]}`,
        root: `./${dir}`,
        include: ['test/**/*.test.ts'],
        testTimeout: 20_000,
        hookTimeout: 60_000,
      },
    })),
  },
});
