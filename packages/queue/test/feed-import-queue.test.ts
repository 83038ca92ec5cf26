import { testRedis } from '@newsroom/test-support';
import { Worker } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createFeedImportQueue,
  createRedisConnection,
  enqueueFirstFetch,
  enqueueManualFetch,
  enqueueScheduledFetches,
  firstFetchJobId,
  hourSlot,
  readFetchJobStatus,
  scheduledFetchJobId,
} from '../src';

const redis = testRedis();
const connection = createRedisConnection(redis.url, 'producer');
const queue = createFeedImportQueue({ connection, prefix: redis.prefix });
afterAll(async () => {
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
});

const publisherA = '0b7c4a52-6f0e-4d7e-9c39-3c1d2a1e0a01';
const publisherB = '0b7c4a52-6f0e-4d7e-9c39-3c1d2a1e0a02';
const planet = { id: publisherA, name: 'Daily Planet' };
const ledger = { id: publisherB, name: 'Morning Ledger' };

describe('job ids', () => {
  it('names the UTC hour slot as yyyymmddhh', () => {
    expect(hourSlot(new Date('2026-11-22T04:59:59.999Z'))).toBe('2026112204');
    expect(hourSlot(new Date('2026-11-22T05:00:00+01:00'))).toBe('2026112204');
  });

  it('builds ids BullMQ accepts: no colon, not all digits', () => {
    const id = scheduledFetchJobId(publisherA, '2026112204');
    expect(id).toBe(`fetch-${publisherA}-2026112204`);
    expect(id).not.toContain(':');
    expect(id).not.toMatch(/^\d+$/);
  });

  it('names a first fetch by publisher and feed URL, without a colon', () => {
    const id = firstFetchJobId(publisherA, 'https://planet.example/feed');
    expect(id).toMatch(new RegExp(`^first-fetch-${publisherA}-[0-9a-f]{16}$`));
    expect(firstFetchJobId(publisherA, 'https://planet.example/feed')).toBe(id);
    expect(firstFetchJobId(publisherA, 'https://planet.example/other')).not.toBe(id);
    expect(id).not.toContain(':');
  });
});

describe('feed-import queue', () => {
  it('enqueues one scheduled fetch per publisher and slot, however often the fan-out runs', async () => {
    await enqueueScheduledFetches(queue, [planet, ledger], '2026112204');
    await enqueueScheduledFetches(queue, [planet, ledger], '2026112204');
    await enqueueScheduledFetches(queue, [planet], '2026112205');
    const jobs = await queue.getJobs(['waiting']);
    expect(jobs.map((job) => job.id).sort()).toEqual(
      [
        scheduledFetchJobId(publisherA, '2026112204'),
        scheduledFetchJobId(publisherA, '2026112205'),
        scheduledFetchJobId(publisherB, '2026112204'),
      ].sort(),
    );
    expect(jobs.find((job) => job.data.publisherId === publisherB)?.data).toEqual({
      publisherId: publisherB,
      publisherName: 'Morning Ledger',
      trigger: 'schedule',
    });
    // Kept a week (at most 20,000) so an administrator finds a publisher's recent fetches.
    expect(jobs[0]?.opts).toMatchObject({
      attempts: 4,
      removeOnComplete: { age: 7 * 24 * 3600, count: 20_000 },
    });
    await queue.drain();
  });

  it('does not pile up manual re-triggers while one is queued', async () => {
    const first = await enqueueManualFetch(queue, connection, planet);
    const second = await enqueueManualFetch(queue, connection, planet);
    const other = await enqueueManualFetch(queue, connection, ledger);
    expect(second).toBe(first);
    expect(other).not.toBe(first);
    expect(await queue.getWaitingCount()).toBe(2);
    const job = await queue.getJob(first);
    expect(job?.data).toEqual({ publisherId: publisherA, publisherName: 'Daily Planet', trigger: 'manual' });
  });

  it('accepts a new manual re-trigger once the previous one is gone', async () => {
    await queue.drain();
    const first = await enqueueManualFetch(queue, connection, ledger);
    const job = await queue.getJob(first);
    // Removing the job releases its deduplication id.
    await job?.remove();
    const second = await enqueueManualFetch(queue, connection, ledger);
    expect(second).not.toBe(first);
  });

  it('joins a manual fetch that finished less than a minute ago, and starts a new one after', async () => {
    await queue.drain();
    const first = await enqueueManualFetch(queue, connection, planet);
    const worker = new Worker(
      queue.name,
      async () => ({ fetched: 1, inserted: 1, skipped: 0, notModified: false }),
      {
        connection: { url: redis.url },
        prefix: redis.prefix,
      },
    );
    const job = await queue.getJob(first);
    while ((await job?.getState()) !== 'completed') await new Promise((r) => setTimeout(r, 20));
    await worker.close();
    const finishedOn = (await queue.getJob(first))?.finishedOn as number;
    expect(await enqueueManualFetch(queue, connection, planet, new Date(finishedOn + 59_000))).toBe(first);
    const later = await enqueueManualFetch(queue, connection, planet, new Date(finishedOn + 61_000));
    expect(later).not.toBe(first);
    expect(await readFetchJobStatus(queue, publisherA, first)).toEqual({
      state: 'completed',
      outcome: { fetched: 1, inserted: 1, skipped: 0, notModified: false },
      failedReason: undefined,
    });
    expect(await readFetchJobStatus(queue, publisherA, later)).toMatchObject({ state: 'waiting' });
    // Another publisher's job id reads as no job.
    expect(await readFetchJobStatus(queue, publisherB, first)).toBeUndefined();
    expect(await readFetchJobStatus(queue, publisherA, 'no-such-job')).toBeUndefined();
  });
});

describe('first fetch', () => {
  it('adds one job however often it is asked for one feed URL, even after it completed', async () => {
    const publisher = {
      id: '0b7c4a52-6f0e-4d7e-9c39-3c1d2a1e0a09',
      name: 'First',
      feedUrl: 'https://first.example/feed',
    };
    const first = await enqueueFirstFetch(queue, publisher, 'req-1');
    expect(await enqueueFirstFetch(queue, publisher, 'req-2')).toBe(first);
    const job = await queue.getJob(first);
    expect(job?.data).toEqual({
      publisherId: publisher.id,
      publisherName: 'First',
      trigger: 'first-import',
      requestId: 'req-1',
    });
    const worker = new Worker(
      queue.name,
      async () => ({ fetched: 0, inserted: 0, skipped: 0, notModified: false }),
      {
        connection: { url: redis.url },
        prefix: redis.prefix,
      },
    );
    try {
      // Bounded: 10 s at most.
      for (let i = 0; i < 500 && (await queue.getJobState(first)) !== 'completed'; i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await worker.close();
    }
    expect(await queue.getJobState(first)).toBe('completed');
    expect(await enqueueFirstFetch(queue, publisher)).toBe(first);
    const ids = (await queue.getJobs(['waiting', 'active', 'completed'])).filter(
      (j) => j.data.publisherId === publisher.id,
    );
    expect(ids).toHaveLength(1);
  });
});
