import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { type PrivatePgBouncer, startPrivatePgBouncer } from '@newsroom/test-support';

// pnpm test:pgbouncer — the API and worker test files that touch the database, run with every pool of theirs
// going through Debian's PgBouncer in transaction mode (docs/deployment.md#past-one-machine): named prepared
// statements off, LISTEN on DATABASE_DIRECT_URL. PgBouncer runs on a free loopback port with a generated ini,
// in front of the test server (TEST_DATABASE_URL), and is stopped at the end. A representative subset (see
// `files`), to keep CI short: the client reads (cached and uncached, the change feed, cursors), the article
// writes (slug advisory locks, compare-and-set), sites and keys, webhooks, the purge relay and the relays woken by
// LISTEN, the feed import.

const files = {
  '@newsroom/api': [
    'test/client/client-routes.test.ts',
    'test/client/client-changes.test.ts',
    'test/client/selective-invalidation.test.ts',
    'test/client/publishable-keys.test.ts',
    'test/client/client-list-cursor.test.ts',
    'test/article-lifecycle.test.ts',
    'test/article-versions.test.ts',
    'test/site-admin.test.ts',
  ],
  '@newsroom/worker': [
    'test/webhooks.test.ts',
    'test/cdn-purge.test.ts',
    'test/relay-wake.test.ts',
    'test/import-cycle.test.ts',
  ],
};

const server = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

let status = 1;
let pgbouncer: PrivatePgBouncer | undefined;
try {
  pgbouncer = await startPrivatePgBouncer(server, { stdio: 'inherit' });
  console.error(`PgBouncer (transaction mode) on 127.0.0.1:${pgbouncer.port}`);
  const args = ['exec', 'vitest', 'run'];
  for (const [project, paths] of Object.entries(files)) {
    args.push(
      '--project',
      project,
      ...paths.map((path) => `${project === '@newsroom/api' ? 'apps/api' : 'apps/worker'}/${path}`),
    );
  }
  const vitest = spawn('pnpm', args, {
    stdio: 'inherit',
    env: { ...process.env, TEST_PGBOUNCER_URL: pgbouncer.through(server) },
  });
  const [code] = (await once(vitest, 'exit')) as [number | null];
  status = code ?? 1;
} catch (error) {
  console.error(error);
} finally {
  await pgbouncer?.stop();
}
process.exit(status);
