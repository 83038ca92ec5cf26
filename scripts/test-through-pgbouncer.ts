import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, isListening } from '@newsroom/test-support';

// pnpm test:pgbouncer — the API and worker test files that touch the database, run with every pool of theirs
// going through Debian's PgBouncer in transaction mode (docs/deployment.md#past-one-machine): named prepared
// statements off, LISTEN on DATABASE_DIRECT_URL. PgBouncer runs on a free loopback port with a generated ini,
// in front of the test server (TEST_DATABASE_URL), and is stopped at the end. A representative subset (see
// `files`), to keep CI short: the client reads (cached and uncached, the change feed, cursors), the article
// writes (slug advisory locks, compare-and-set), sites and keys, webhooks, the purge relay, the feed import.

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
  '@newsroom/worker': ['test/webhooks.test.ts', 'test/cdn-purge.test.ts', 'test/import-cycle.test.ts'],
};

const server = new URL(
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres',
);
const dir = await mkdtemp(join(tmpdir(), 'newsroom-pgbouncer-'));
// PgBouncer refuses to run as root: started as root it switches to the postgres user (-u), which must read
// the ini and write its log here.
await chmod(dir, 0o777);
const port = await freePort();
const user = decodeURIComponent(server.username || 'postgres');
const password = decodeURIComponent(server.password);
await writeFile(join(dir, 'userlist.txt'), `"${user}" ""\n`, { mode: 0o644 });
await writeFile(
  join(dir, 'pgbouncer.ini'),
  `[databases]
; every database name, on the test server (the fallback entry)
* = host=${server.hostname} port=${server.port || 5432} user=${user}${password ? ` password=${password}` : ''}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(dir, 'userlist.txt')}
pool_mode = transaction
max_client_conn = 2000
default_pool_size = 8
; pg sends these at connect; a transaction pooler cannot keep per-client session settings (set them per role
; in production: ALTER ROLE ... SET statement_timeout, see docs/deployment.md)
ignore_startup_parameters = extra_float_digits,statement_timeout,idle_in_transaction_session_timeout,options
logfile = ${join(dir, 'pgbouncer.log')}
`,
  { mode: 0o644 },
);

const asRoot = process.getuid?.() === 0;
const pgbouncer: ChildProcess = spawn(
  'pgbouncer',
  [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')],
  { stdio: 'inherit', env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin` } },
);
async function stop() {
  if (pgbouncer.exitCode === null && pgbouncer.signalCode === null) {
    const exited = once(pgbouncer, 'exit');
    pgbouncer.kill('SIGTERM');
    const force = setTimeout(() => pgbouncer.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(force);
  }
  await rm(dir, { recursive: true, force: true });
}

let status = 1;
try {
  let up = false;
  for (let waited = 0; waited < 10_000 && !up; waited += 100) {
    if (pgbouncer.exitCode !== null) throw new Error(`pgbouncer exited with ${pgbouncer.exitCode}`);
    up = await isListening('127.0.0.1', port, 200);
    if (!up) await sleep(100);
  }
  if (!up) throw new Error(`pgbouncer did not listen on ${port} within 10 s`);
  const pooler = new URL(server);
  pooler.port = String(port);
  console.error(`PgBouncer (transaction mode) on 127.0.0.1:${port}`);
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
    env: { ...process.env, TEST_PGBOUNCER_URL: pooler.toString() },
  });
  const [code] = (await once(vitest, 'exit')) as [number | null];
  status = code ?? 1;
} catch (error) {
  console.error(error);
} finally {
  await stop();
}
process.exit(status);
