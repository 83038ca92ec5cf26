import { loadWorkerConfig } from '@newsroom/config';
import { createRedisConnection, enqueueScheduledFetches } from '@newsroom/queue';
import { readFeedFixture, startFeedServer } from '@newsroom/test-support';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createImportWorker } from '../../../worker/src/imports/import-worker';
import { bearer, insertAdmin, insertPublisher } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

// A publisher floods PUT /publisher/me/feed with new addresses of a slow feed. The API throttles address
// changes, the queue holds at most one first import per publisher, and the worker gives one publisher at
// most its share of slots: another publisher's "Import now" still completes promptly (a generous bound).

vi.setConfig({ testTimeout: 90_000 });

/** The slow feed answers after this long (under the fetch's 20 s deadline). */
const slowMs = 12_000;
/** What "promptly" means for the other publisher's import: far below slowMs, far above a normal import. */
const promptMs = 8_000;

const { app, db, config, close } = await createTestApp({
  env: { FEED_ALLOW_PRIVATE_ADDRESSES: 'true', RATE_LIMIT_FEED_URL_CHANGES: '5/1h' },
});
const feed = readFeedFixture('guardian.rss');
const server = await startFeedServer({
  '/slow.rss': { body: feed, delayMs: slowMs },
  '/fast.rss': { body: feed },
  '/a-little-slow.rss': { body: feed, delayMs: 2_000 },
  '/next.rss': { body: feed },
});
const workerConnection = createRedisConnection(config.redis.url, 'worker');
const worker = await createImportWorker({
  config: loadWorkerConfig({
    NODE_ENV: 'test',
    DATABASE_URL: config.databaseUrl,
    REDIS_URL: config.redis.url,
    QUEUE_PREFIX: config.redis.queuePrefix,
    FEED_ALLOW_PRIVATE_ADDRESSES: 'true',
    WORKER_CONCURRENCY: '4',
    // Both servers listen on 127.0.0.1 but stand for two publishers' own hosts: the per-host limit is
    // not what this test is about.
    FEED_FETCHES_PER_HOST: '64',
  }),
  db,
  connection: workerConnection,
  schedule: false,
  retryBaseDelayMs: 50,
  hostRedelayMs: 2_000,
});
afterAll(async () => {
  await worker.close();
  await app.feedImportQueue?.obliterate({ force: true });
  workerConnection.disconnect();
  await close();
  await server.close();
});

const asAdmin = bearer((await insertAdmin(app, db)).token);

/** Jobs of one publisher that are queued or running. */
const pendingJobsOf = async (publisherId: string) =>
  (await worker.queue.getJobs(['waiting', 'active', 'delayed', 'prioritized'])).filter(
    (job) => job.data.publisherId === publisherId,
  );

/** "Import now" for `publisherId`, and how long until its job completed. */
async function timedImportNow(publisherId: string): Promise<number> {
  const started = Date.now();
  const queued = await app.inject({
    method: 'POST',
    url: `/api/v1/publisher/${publisherId}/import`,
    headers: asAdmin,
  });
  expect(queued.statusCode).toBe(202);
  const { jobId } = queued.json();
  for (;;) {
    const { state } = (
      await app.inject({
        method: 'GET',
        url: `/api/v1/publisher/${publisherId}/import/${jobId}`,
        headers: asAdmin,
      })
    ).json();
    if (state === 'completed' || state === 'failed') return Date.now() - started;
    // Bounded: past twice the slow feed's delay the answer is known (a failed bound).
    if (Date.now() - started > 2 * slowMs) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function approvedPublisher(feedPath?: string) {
  const account = await insertPublisher(app, db, { approved: true });
  if (feedPath) {
    await db
      .updateTable('publishers')
      .set({ feed_url: server.url(feedPath) })
      .where('id', '=', account.publisherId)
      .execute();
  }
  return account;
}

describe('a flood of feed-address changes', () => {
  it('is throttled per publisher, queues one fetch at a time, and leaves other publishers’ imports prompt', async () => {
    const flooder = await approvedPublisher();
    const other = await approvedPublisher('/fast.rss');

    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        app.inject({
          method: 'PUT',
          url: '/api/v1/publisher/me/feed',
          headers: bearer(flooder.token),
          payload: { feedUrl: `${server.url('/slow.rss')}?copy=${i}` },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25);
    const refused = answers.find((answer) => answer.statusCode === 429);
    expect(refused?.json()).toMatchObject({ statusCode: 429, code: 'FEED_URL_CHANGES_LIMITED' });
    expect(refused?.json().message).toMatch(/feed address/i);
    const retryAfter = Number(refused?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);

    // At most one first import of the flooder is queued or running, whatever it saved since.
    expect((await pendingJobsOf(flooder.publisherId)).length).toBeLessThanOrEqual(1);
    expect(await timedImportNow(other.publisherId)).toBeLessThan(promptMs);
    expect((await pendingJobsOf(flooder.publisherId)).length).toBeLessThanOrEqual(1);
  });

  it('saving the same address again, or only tags, is not counted as a change', async () => {
    const publisher = await approvedPublisher();
    const save = (feedUrl: string, defaultTags?: string[]) =>
      app.inject({
        method: 'PUT',
        url: '/api/v1/publisher/me/feed',
        headers: bearer(publisher.token),
        payload: { feedUrl, ...(defaultTags ? { defaultTags } : {}) },
      });
    const url = `${server.url('/fast.rss')}?same=1`;
    for (let i = 0; i < 10; i++) expect((await save(url, [`tag ${i}`])).statusCode).toBe(200);
  });
});

/** Polls `check` every 50 ms until it holds, for at most `ms` (then the test's expectation fails). */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('one first import per publisher at a time', () => {
  it('keeps an address saved while the first import runs, and fetches it after that one', async () => {
    const publisher = await approvedPublisher();
    const save = (path: string) =>
      app.inject({
        method: 'PUT',
        url: '/api/v1/publisher/me/feed',
        headers: bearer(publisher.token),
        payload: { feedUrl: server.url(path) },
      });
    expect((await save('/a-little-slow.rss')).statusCode).toBe(200);
    const running = async () =>
      (await pendingJobsOf(publisher.publisherId)).some((job) => job.processedOn !== undefined);
    expect(await eventually(running, 10_000)).toBe(true);

    expect((await save('/next.rss')).statusCode).toBe(200);
    // Not a second job beside the running one: BullMQ keeps the request until that one finishes.
    expect(await pendingJobsOf(publisher.publisherId)).toHaveLength(1);
    expect(await eventually(async () => server.requestsTo('/next.rss').length === 1, 20_000)).toBe(true);
    expect(
      await eventually(async () => (await pendingJobsOf(publisher.publisherId)).length === 0, 10_000),
    ).toBe(true);
  });
});

describe('the worker’s slots', () => {
  it('never gives one publisher’s slow fetches more than its share', async () => {
    const slow = await approvedPublisher('/slow.rss');
    const other = await approvedPublisher('/fast.rss');
    // Six fetches of the slow publisher at once (e.g. hourly runs and retries piling up).
    for (const slot of ['2026010100', '2026010101', '2026010102', '2026010103', '2026010104', '2026010105']) {
      await enqueueScheduledFetches(worker.queue, [{ id: slow.publisherId, name: 'slow' }], slot);
    }
    // Let the worker pick them up before the other publisher asks.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await timedImportNow(other.publisherId)).toBeLessThan(promptMs);
  });
});
