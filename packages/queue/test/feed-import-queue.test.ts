import { testRedis } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createFeedImportQueue,
  createRedisConnection,
  enqueueManualFetch,
  enqueueScheduledFetches,
  hourSlot,
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
});

describe('feed-import queue', () => {
  it('enqueues one scheduled fetch per publisher and slot, however often the fan-out runs', async () => {
    await enqueueScheduledFetches(queue, [publisherA, publisherB], '2026112204');
    await enqueueScheduledFetches(queue, [publisherA, publisherB], '2026112204');
    await enqueueScheduledFetches(queue, [publisherA], '2026112205');
    const jobs = await queue.getJobs(['waiting']);
    expect(jobs.map((job) => job.id).sort()).toEqual(
      [
        scheduledFetchJobId(publisherA, '2026112204'),
        scheduledFetchJobId(publisherA, '2026112205'),
        scheduledFetchJobId(publisherB, '2026112204'),
      ].sort(),
    );
    expect(jobs[0]?.data).toMatchObject({ trigger: 'schedule' });
    expect(jobs[0]?.opts).toMatchObject({ attempts: 4, removeOnComplete: { age: 7200 } });
    await queue.drain();
  });

  it('does not pile up manual re-triggers while one is queued', async () => {
    const first = await enqueueManualFetch(queue, publisherA);
    const second = await enqueueManualFetch(queue, publisherA);
    const other = await enqueueManualFetch(queue, publisherB);
    expect(second).toBe(first);
    expect(other).not.toBe(first);
    expect(await queue.getWaitingCount()).toBe(2);
    const job = await queue.getJob(first);
    expect(job?.data).toEqual({ publisherId: publisherA, trigger: 'manual' });
  });

  it('accepts a new manual re-trigger once the previous one has finished', async () => {
    await queue.drain();
    const first = await enqueueManualFetch(queue, publisherB);
    const job = await queue.getJob(first);
    // Finishing (here: removing) the job releases its deduplication id.
    await job?.remove();
    const second = await enqueueManualFetch(queue, publisherB);
    expect(second).not.toBe(first);
  });
});
