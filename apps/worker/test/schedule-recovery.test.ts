import { setTimeout as sleep } from 'node:timers/promises';
import { loadWorkerConfig } from '@newsroom/config';
import { createFeedImportQueue, createRedisConnection, feedImportSchedulerId } from '@newsroom/queue';
import { createTestDatabase, type PrivateRedis, startPrivateRedis } from '@newsroom/test-support';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createImportWorker, type ImportWorker } from '../src/imports/import-worker';

// A private redis-server: these tests flush and replace it, which the shared one must never see.
vi.setConfig({ testTimeout: 60_000 });

const database = await createTestDatabase();
const redis: PrivateRedis = await startPrivateRedis();
const schedule = '0 * * * *';
const started: { worker: ImportWorker; close(): void }[] = [];
afterEach(async () => {
  for (const { worker, close } of started.splice(0)) {
    // Forced: a worker whose server was just replaced may still be reconnecting its blocking
    // connection, and a graceful close would wait for it; these tests have no job to finish.
    await worker.worker.close(true);
    await worker.close();
    close();
  }
});
afterAll(async () => {
  await redis.stop();
  await database.destroy();
});

async function startWorker(checkSeconds: number) {
  const config = loadWorkerConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: 'schedule-recovery',
    IMPORT_SCHEDULE: schedule,
    SCHEDULE_CHECK_SECONDS: String(checkSeconds),
  });
  const connection = createRedisConnection(redis.url, 'worker');
  const worker = await createImportWorker({ config, db: database.db, connection });
  started.push({ worker, close: () => connection.disconnect() });
  return worker;
}

/** Polls (bounded) until the scheduler exists; returns it, or undefined after `boundMs`. */
async function schedulerWithin(boundMs: number) {
  const connection = createRedisConnection(redis.url, 'worker');
  const queue = createFeedImportQueue({ connection, prefix: 'schedule-recovery' });
  try {
    for (const deadline = Date.now() + boundMs; Date.now() < deadline; await sleep(100)) {
      const scheduler = await queue.getJobScheduler(feedImportSchedulerId).catch(() => undefined);
      if (scheduler) return scheduler;
    }
    return undefined;
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

async function flushAll() {
  const admin = createRedisConnection(redis.url, 'worker');
  try {
    await admin.flushall();
  } finally {
    admin.disconnect();
  }
}

describe('the hourly job scheduler after Redis loses it', () => {
  it('is re-created by the periodic check after a FLUSHALL (the connection stays up)', async () => {
    await startWorker(1);
    expect(await schedulerWithin(5_000)).toMatchObject({ pattern: schedule });
    await flushAll();
    // Bound: a few check intervals (1 s here; 30 s by default), generous for a loaded machine.
    const restored = await schedulerWithin(15_000);
    expect(restored).toMatchObject({ key: feedImportSchedulerId, pattern: schedule, tz: 'UTC' });
  });

  it('is re-created on reconnect when Redis is replaced by an empty server', async () => {
    // An hour between periodic checks: only the reconnect's ready event can bring it back in time.
    await startWorker(3600);
    expect(await schedulerWithin(5_000)).toBeDefined();
    await redis.restart();
    const restored = await schedulerWithin(20_000);
    expect(restored).toMatchObject({ key: feedImportSchedulerId, pattern: schedule });
  });
});
