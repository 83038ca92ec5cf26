import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRedisConnection } from '@newsroom/queue';
import { entryPointCwd, testRedis, tsxLoader } from '@newsroom/test-support';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createHostSlots } from '../src/imports/host-slots';
import { createWorkerHarness, insertPublisher, waitForIdleQueue } from './support/worker-harness';

// At most FEED_FETCHES_PER_HOST fetches at once per host, across every worker replica: two real worker
// processes (main.ts, configured by environment only) against two loopback hosts that count the
// requests they are answering at once.

vi.setConfig({ testTimeout: 120_000 });

const root = resolve(import.meta.dirname, '../../..');
const harness = await createWorkerHarness();
const { db, queue, config } = harness;

interface CountingHost {
  origin: string;
  maxInFlight: number;
  served: number;
  userAgents: Set<string>;
  server: Server;
}

/** A feed host on `address` answering each request after `delayMs`, counting requests in flight. */
async function startCountingHost(address: string, delayMs: number): Promise<CountingHost> {
  let inFlight = 0;
  const host: CountingHost = {
    origin: '',
    maxInFlight: 0,
    served: 0,
    userAgents: new Set(),
    server: createServer(),
  };
  host.server.on('request', (request, response) => {
    inFlight++;
    host.maxInFlight = Math.max(host.maxInFlight, inFlight);
    host.userAgents.add(String(request.headers['user-agent']));
    const tag = (request.url ?? '/').replace(/\W/g, '');
    setTimeout(() => {
      inFlight--;
      host.served++;
      response.writeHead(200, { 'content-type': 'application/rss+xml' });
      response.end(
        `<?xml version="1.0"?><rss version="2.0"><channel><title>${tag}</title><link>https://${tag}.example/</link><item><guid>${tag}-1</guid><title>One</title><link>https://${tag}.example/1</link></item></channel></rss>`,
      );
    }, delayMs);
  });
  await new Promise<void>((done) => host.server.listen(0, address, done));
  host.origin = `http://${address}:${(host.server.address() as AddressInfo).port}`;
  return host;
}

const hostA = await startCountingHost('127.0.0.1', 300);
const hostB = await startCountingHost('127.0.0.2', 300);
const workers: ChildProcess[] = [];
afterAll(async () => {
  for (const worker of workers) {
    if (worker.exitCode === null && worker.signalCode === null) {
      worker.kill('SIGTERM');
      await once(worker, 'exit');
    }
  }
  await harness.close();
  for (const host of [hostA, hostB]) {
    host.server.closeAllConnections();
    await new Promise((done) => host.server.close(done));
  }
});

function startWorkerProcess(): ChildProcess {
  const child = spawn(process.execPath, ['--import', tsxLoader, resolve(root, 'apps/worker/src/main.ts')], {
    cwd: entryPointCwd,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: harness.config.databaseUrl,
      REDIS_URL: config.redis.url,
      QUEUE_PREFIX: config.redis.queuePrefix,
      FEED_ALLOW_PRIVATE_ADDRESSES: 'true',
      IMPORT_SCHEDULE: '0 0 1 1 *',
      WORKER_CONCURRENCY: '8',
      FEED_FETCHES_PER_HOST: '2',
      FEED_USER_AGENT: 'HostSlotsTest/1.0 (+https://newsroom.example/bot)',
    },
  });
  let output = '';
  child.stderr?.on('data', (chunk) => (output += chunk));
  child.on('exit', (code) => {
    if (code) console.error(`worker exited ${code}: ${output}`);
  });
  workers.push(child);
  return child;
}

describe('fetches per host across two worker processes', () => {
  it('never has more than 2 requests in flight on one host, and imports every feed', async () => {
    const publishers: string[] = [];
    for (let i = 0; i < 12; i++) {
      publishers.push(await insertPublisher(db, { name: `A${i}`, feedUrl: `${hostA.origin}/a${i}.rss` }));
    }
    for (let i = 0; i < 6; i++) {
      publishers.push(await insertPublisher(db, { name: `B${i}`, feedUrl: `${hostB.origin}/b${i}.rss` }));
    }
    startWorkerProcess();
    startWorkerProcess();
    // Both workers are up (each has registered with the queue) before the jobs arrive.
    for (const deadline = Date.now() + 60_000; (await queue.getWorkers()).length < 2; await sleep(100)) {
      if (Date.now() > deadline) throw new Error('the workers did not start');
    }
    await queue.addBulk(
      publishers.map((publisherId) => ({
        name: 'fetch-feed' as const,
        data: { publisherId, trigger: 'manual' as const },
      })),
    );
    await waitForIdleQueue(queue, 90_000);

    expect(hostA.served).toBe(12);
    expect(hostB.served).toBe(6);
    expect(hostA.maxInFlight).toBe(2);
    expect(hostB.maxInFlight).toBe(2);
    expect([...hostA.userAgents, ...hostB.userAgents]).toEqual(
      Array(2).fill('HostSlotsTest/1.0 (+https://newsroom.example/bot)'),
    );
    expect(await queue.getJobCounts('completed', 'failed')).toEqual({ completed: 18, failed: 0 });
    const articles = await db.selectFrom('articles').select('rss_feed_guid').execute();
    expect(articles).toHaveLength(18);
    for (const worker of workers) {
      worker.kill('SIGTERM');
      const [code] = await once(worker, 'exit');
      expect(code).toBe(0);
    }
  });
});

describe('host slots', () => {
  const redis = testRedis();
  const connection = createRedisConnection(redis.url, 'worker');
  afterAll(() => connection.disconnect());

  it('expire: a lease never released (a crashed worker) frees its slot after leaseMs', async () => {
    const slots = createHostSlots({ connection, prefix: redis.prefix, perHost: 2, leaseMs: 400 });
    expect(await slots.acquire('crash.example', 0)).toBeDefined();
    expect(await slots.acquire('crash.example', 0)).toBeDefined();
    const started = Date.now();
    expect(await slots.acquire('crash.example', 50)).toBeUndefined();
    expect(await slots.acquire('other.example', 0)).toBeDefined();
    const third = await slots.acquire('crash.example', 5_000);
    expect(third).toBeDefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    await third?.release();
  });

  it('release frees a slot at once, and waiting is bounded', async () => {
    const slots = createHostSlots({ connection, prefix: redis.prefix, perHost: 1, leaseMs: 30_000 });
    const held = await slots.acquire('busy.example', 0);
    const waiting = slots.acquire('busy.example', 5_000);
    await sleep(100);
    await held?.release();
    expect(await waiting).toBeDefined();
    const started = Date.now();
    expect(await slots.acquire('busy.example', 200)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('a job that gets no slot in time', () => {
  it('is put back as delayed, without using an attempt, and completes later', async () => {
    const slowHost = await startCountingHost('127.0.0.1', 400);
    try {
      await harness.startWorker({ hostWaitMs: 20, hostRedelayMs: 200 });
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        ids.push(await insertPublisher(db, { name: `S${i}`, feedUrl: `${slowHost.origin}/s${i}.rss` }));
      }
      const jobs = await queue.addBulk(
        ids.map((publisherId) => ({
          name: 'fetch-feed' as const,
          data: { publisherId, trigger: 'manual' as const },
        })),
      );
      await waitForIdleQueue(queue, 60_000);
      expect(await queue.getWorkers()).toHaveLength(1);
      expect(slowHost.served).toBe(6);
      expect(slowHost.maxInFlight).toBeLessThanOrEqual(2);
      for (const job of jobs) {
        const done = await queue.getJob(job.id as string);
        expect(await done?.getState()).toBe('completed');
        expect(done?.attemptsMade).toBe(1);
      }
    } finally {
      slowHost.server.closeAllConnections();
      await new Promise((done) => slowHost.server.close(done));
    }
  });
});
