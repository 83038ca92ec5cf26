import { readFeedFixture, startFeedServer } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { upsertImportScheduler } from '../src/imports/import-worker';
import { createWorkerHarness, insertPublisher, waitForIdleQueue, waitForJob } from './support/worker-harness';

const harness = await createWorkerHarness();
const { db, queue } = harness;
const server = await startFeedServer();
afterAll(async () => {
  await harness.close();
  await server.close();
});

/** A feed of `count` items whose guids are unique to `name`. */
function feedOf(name: string, count: number): string {
  const items = Array.from(
    { length: count },
    (_, i) =>
      `<item><guid>${name}-${i}</guid><title>${name} story ${i}</title><link>https://${name}.example/${i}</link>
       <description>&lt;p&gt;Body ${i}&lt;/p&gt;</description><pubDate>Sat, 21 Nov 2026 10:0${i % 10}:00 GMT</pubDate></item>`,
  ).join('');
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>${name}</title><link>https://${name}.example/</link>${items}</channel></rss>`;
}

describe('the job scheduler', () => {
  it('stays single after repeated starts and pattern changes', async () => {
    await upsertImportScheduler(queue, '0 * * * *');
    await upsertImportScheduler(queue, '0 * * * *');
    await upsertImportScheduler(queue, '30 * * * *');
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers).toHaveLength(1);
    expect(schedulers[0]).toMatchObject({ pattern: '30 * * * *', tz: 'UTC' });
    await queue.removeJobScheduler(schedulers[0]?.key as string);
    await queue.drain(true);
  });
});

describe('one hourly cycle', () => {
  it('with 3 racing workers and repeated fan-outs, fetches each feed once and stores each article once', async () => {
    const publishers: string[] = [];
    for (let p = 0; p < 12; p++) {
      const path = `/race-${p}.rss`;
      server.route(path, { body: feedOf(`race${p}`, 5), etag: `"race-${p}"` });
      publishers.push(await insertPublisher(db, { name: `Race ${p}`, feedUrl: server.url(path) }));
    }
    // Shares guids with race-0 but belongs to another publisher: imported separately.
    await insertPublisher(db, { name: 'Twin', feedUrl: server.url('/race-0.rss') });
    await insertPublisher(db, { name: 'Unapproved', approved: false, feedUrl: server.url('/race-1.rss') });
    server.route('/twin-source.rss', { body: readFeedFixture('narro.rss') });

    // Three replicas start at once: each upserts the scheduler (a new one fires immediately once).
    const replicas = await Promise.all([
      harness.startWorker({ schedule: true }),
      harness.startWorker({ schedule: true }),
      harness.startWorker({ schedule: true }),
    ]);
    // A repeated fan-out in the same slot (a retried scheduler job, a manual add) must add nothing.
    await queue.add('fan-out-feeds', {});
    await queue.add('fan-out-feeds', {});
    await waitForIdleQueue(queue);

    expect(await queue.getJobSchedulers()).toHaveLength(1);
    for (let p = 0; p < 12; p++) {
      const fetches = server.requestsTo(`/race-${p}.rss`);
      // race-0 is also the twin's feed: one fetch per publisher.
      expect(fetches).toHaveLength(p === 0 ? 2 : 1);
    }
    const counts = await db
      .selectFrom('articles')
      .select(({ fn }) => ['publisher_id', fn.countAll<string>().as('n')])
      .groupBy('publisher_id')
      .execute();
    expect(counts).toHaveLength(13);
    expect(counts.every((row) => Number(row.n) === 5)).toBe(true);
    const duplicates = await db
      .selectFrom('articles')
      .select(['publisher_id', 'rss_feed_guid'])
      .groupBy(['publisher_id', 'rss_feed_guid'])
      .having(({ fn }) => fn.countAll(), '>', 1)
      .execute();
    expect(duplicates).toEqual([]);
    const completed = await queue.getJobs(['completed']);
    const fetchIds = completed.filter((job) => job.name === 'fetch-feed').map((job) => job.id);
    expect(new Set(fetchIds).size).toBe(13);
    expect(fetchIds.every((id) => /^fetch-[0-9a-f-]{36}-\d{10}$/.test(id ?? ''))).toBe(true);
    await Promise.all(replicas.map((replica) => replica.close()));
  });
});

describe('graceful close', () => {
  it('lets an active fetch finish before the worker stops', async () => {
    server.route('/slow.rss', { body: readFeedFixture('heraldsun.rss'), delayMs: 700 });
    const publisherId = await insertPublisher(db, { feedUrl: server.url('/slow.rss') });
    const worker = await harness.startWorker();
    const job = await queue.add('fetch-feed', { publisherId, trigger: 'manual' });
    while (server.requestsTo('/slow.rss').length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The fetch is in flight (the server has not answered yet) when the worker is told to close.
    expect(server.requestsTo('/slow.rss')[0]?.status).toBe(0);
    await worker.close();
    expect(await job.getState()).toBe('completed');
    expect((await waitForJob(queue, job.id as string)).returnvalue).toMatchObject({ inserted: 2 });
  });
});
