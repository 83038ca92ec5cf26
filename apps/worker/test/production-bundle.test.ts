import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFeedImportQueue, createRedisConnection } from '@newsroom/queue';
import { createTestDatabase, entryPointCwd, startFeedServer, testRedis } from '@newsroom/test-support';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildBundles, productionEnvironment, productionNodeFlags } from '../../../scripts/build';
import { insertPublisher, workerProcessEnv } from './support/worker-harness';

// The production build (`pnpm build`): the worker bundle runs under plain node with production's heap
// cap and imports a feed end to end.

vi.setConfig({ testTimeout: 60_000 });

const outdir = mkdtempSync(join(tmpdir(), 'newsroom-build-'));
const { db, url, destroy } = await createTestDatabase();
const redis = testRedis();
const server = await startFeedServer();
const connection = createRedisConnection(redis.url, 'worker');
const queue = createFeedImportQueue({ connection, prefix: redis.prefix });
let worker: ChildProcess | undefined;
afterAll(async () => {
  if (worker && worker.exitCode === null) {
    worker.kill('SIGTERM');
    await once(worker, 'exit');
  }
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
  await server.close();
  await destroy();
  rmSync(outdir, { recursive: true, force: true });
});

const items = Array.from(
  { length: 3 },
  (_, i) =>
    `<item><guid>bundle-${i}</guid><title>Bundled story ${i}</title><description>&lt;p&gt;Body ${i}&lt;/p&gt;</description></item>`,
).join('');

describe('the worker bundle', () => {
  it('builds, starts under plain node and imports a feed', async () => {
    server.route('/bundle.rss', {
      body: `<?xml version="1.0"?><rss version="2.0"><channel><title>B</title><link>https://b.example/</link>${items}</channel></rss>`,
    });
    const publisherId = await insertPublisher(db, { name: 'Bundle', feedUrl: server.url('/bundle.rss') });
    await buildBundles(outdir);

    let output = '';
    worker = spawn(process.execPath, [...productionNodeFlags.worker, join(outdir, 'worker.mjs')], {
      cwd: entryPointCwd,
      env: workerProcessEnv(url, redis, productionEnvironment.worker),
    });
    worker.stdout?.on('data', (chunk) => (output += chunk));
    worker.stderr?.on('data', (chunk) => (output += chunk));
    await queue.add('fetch-feed', { publisherId, trigger: 'manual' });

    const deadline = Date.now() + 30_000;
    let titles: string[] = [];
    while (titles.length < 3) {
      if (worker.exitCode !== null) throw new Error(`the worker bundle exited: ${output}`);
      if (Date.now() > deadline) throw new Error(`nothing imported within 30 s: ${output}`);
      await new Promise((r) => setTimeout(r, 100));
      titles = (await db.selectFrom('articles').select('title').orderBy('title').execute()).map(
        (r) => r.title,
      );
    }
    expect(titles).toEqual(['Bundled story 0', 'Bundled story 1', 'Bundled story 2']);

    worker.kill('SIGTERM');
    const [code] = await once(worker, 'exit');
    expect(code).toBe(0);
  });
});
