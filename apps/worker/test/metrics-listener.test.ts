import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { resolve } from 'node:path';
import { createFeedImportQueue, createRedisConnection } from '@newsroom/queue';
import {
  createTestDatabase,
  entryPointCwd,
  parsePrometheusText,
  startFeedServer,
  testRedis,
  tsxLoader,
} from '@newsroom/test-support';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { insertPublisher } from './support/worker-harness';

// main.ts as production runs it: the metrics listener comes from configuration (METRICS_TOKEN and
// WORKER_METRICS_PORT) and exposes the job counters of a real import.

vi.setConfig({ testTimeout: 60_000 });

const root = resolve(import.meta.dirname, '../../..');
const token = 'metrics-token-for-tests-0123456789';
const { db, url, destroy } = await createTestDatabase();
const redis = testRedis();
const feeds = await startFeedServer();
const connection = createRedisConnection(redis.url, 'worker');
const queue = createFeedImportQueue({ connection, prefix: redis.prefix });
const workers: ChildProcess[] = [];
afterAll(async () => {
  for (const worker of workers) {
    if (worker.exitCode === null && worker.signalCode === null) {
      worker.kill('SIGTERM');
      await once(worker, 'exit');
    }
  }
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
  await feeds.close();
  await destroy();
});

/** A loopback port nothing listens on (free a moment ago). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

function startWorker(env: Record<string, string>) {
  let output = '';
  const worker = spawn(process.execPath, ['--import', tsxLoader, resolve(root, 'apps/worker/src/main.ts')], {
    cwd: entryPointCwd,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: redis.prefix,
      FEED_ALLOW_PRIVATE_ADDRESSES: 'true',
      IMPORT_SCHEDULE: '0 0 1 1 *',
      ...env,
    },
  });
  workers.push(worker);
  worker.stdout?.on('data', (chunk) => (output += chunk));
  worker.stderr?.on('data', (chunk) => (output += chunk));
  return { worker, output: () => output };
}

const scrape = (port: number, authorization?: string) =>
  fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: authorization ? { authorization } : {},
    signal: AbortSignal.timeout(5_000),
  });

describe('the worker process', () => {
  it('serves its metrics on WORKER_METRICS_PORT to holders of METRICS_TOKEN, with the jobs it ran', async () => {
    feeds.route('/listener.rss', {
      body: `<?xml version="1.0"?><rss version="2.0"><channel><title>L</title><link>https://l.example/</link><item><guid>l-1</guid><title>One</title></item><item><guid>l-2</guid><title>Two</title></item></channel></rss>`,
    });
    const publisherId = await insertPublisher(db, { name: 'Listener', feedUrl: feeds.url('/listener.rss') });
    const port = await freePort();
    const { worker, output } = startWorker({ METRICS_TOKEN: token, WORKER_METRICS_PORT: String(port) });

    await vi.waitFor(
      async () => {
        if (worker.exitCode !== null) throw new Error(`the worker exited: ${output()}`);
        expect(output()).toContain('worker started');
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(output()).toContain(`"url":"http://127.0.0.1:${port}/metrics"`);
    expect((await scrape(port)).status).toBe(401);
    expect((await scrape(port, 'Bearer wrong-token-0123456789')).status).toBe(401);

    await queue.add('fetch-feed', { publisherId, trigger: 'manual' });
    await vi.waitFor(
      async () => {
        const response = await scrape(port, `Bearer ${token}`);
        expect(response.status).toBe(200);
        const metrics = parsePrometheusText(await response.text());
        expect(metrics.sum('newsroom_worker_jobs_total', { name: 'fetch-feed', result: 'completed' })).toBe(
          1,
        );
        expect(metrics.sum('newsroom_worker_feed_items_total', { result: 'inserted' })).toBe(2);
        expect(metrics.sum('newsroom_worker_queue_jobs', { state: 'completed' })).toBe(1);
      },
      { timeout: 30_000, interval: 200 },
    );

    worker.kill('SIGTERM');
    const [code] = await once(worker, 'exit');
    expect(code).toBe(0);
  });

  it('starts no listener without METRICS_TOKEN, and says why', async () => {
    const port = await freePort();
    const { worker, output } = startWorker({ WORKER_METRICS_PORT: String(port) });
    await vi.waitFor(
      async () => {
        if (worker.exitCode !== null) throw new Error(`the worker exited: ${output()}`);
        expect(output()).toContain('worker started');
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(output()).toContain('WORKER_METRICS_PORT is set but METRICS_TOKEN is not');
    await expect(scrape(port, `Bearer ${token}`)).rejects.toThrow();
    worker.kill('SIGTERM');
    const [code] = await once(worker, 'exit');
    expect(code).toBe(0);
  });
});
