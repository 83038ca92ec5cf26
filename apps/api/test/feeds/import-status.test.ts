import { loadWorkerConfig } from '@newsroom/config';
import { createRedisConnection } from '@newsroom/queue';
import { readFeedFixture, startFeedServer } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { createImportWorker } from '../../../worker/src/imports/import-worker';
import { bearer, insertAdmin } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

// The API and the real import worker on one database and queue prefix, feeds from a loopback server.
const { app, db, config, close } = await createTestApp({ env: { FEED_ALLOW_PRIVATE_ADDRESSES: 'true' } });
const server = await startFeedServer({
  '/guardian.rss': { body: readFeedFixture('guardian.rss') },
  '/not-a-feed': { body: readFeedFixture('unrecognized.rss'), contentType: 'text/html' },
});
const workerConnection = createRedisConnection(config.redis.url, 'worker');
const worker = await createImportWorker({
  config: loadWorkerConfig({
    NODE_ENV: 'test',
    DATABASE_URL: config.databaseUrl,
    REDIS_URL: config.redis.url,
    QUEUE_PREFIX: config.redis.queuePrefix,
    FEED_ALLOW_PRIVATE_ADDRESSES: 'true',
  }),
  db,
  connection: workerConnection,
  schedule: false,
  retryBaseDelayMs: 50,
});
afterAll(async () => {
  await worker.close();
  await app.feedImportQueue?.obliterate({ force: true });
  workerConnection.disconnect();
  await close();
  await server.close();
});

const asAdmin = bearer((await insertAdmin(app, db)).token);
const insertPublisher = async (name: string, feedPath: string) =>
  (
    await db
      .insertInto('publishers')
      .values({ name, feed_url: server.url(feedPath), approved: true })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
const importNow = (publisherId: string) =>
  app.inject({ method: 'POST', url: `/api/v1/publisher/${publisherId}/import`, headers: asAdmin });
const status = (publisherId: string, jobId: string) =>
  app.inject({ method: 'GET', url: `/api/v1/publisher/${publisherId}/import/${jobId}`, headers: asAdmin });

async function untilFinished(publisherId: string, jobId: string) {
  for (let i = 0; i < 400; i++) {
    const body = (await status(publisherId, jobId)).json();
    if (body.state === 'completed' || body.state === 'failed') return body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${jobId} did not finish`);
}

describe('GET /api/v1/publisher/:id/import/:jobId', () => {
  it('follows Import now to its outcome, and a repeat within a minute joins it', async () => {
    const publisherId = await insertPublisher('The Guardian', '/guardian.rss');
    const queued = await importNow(publisherId);
    expect(queued.statusCode).toBe(202);
    const { jobId } = queued.json();
    expect(['waiting', 'active', 'completed']).toContain((await status(publisherId, jobId)).json().state);

    const finished = await untilFinished(publisherId, jobId);
    expect(finished.state).toBe('completed');
    expect(finished.outcome.inserted).toBeGreaterThan(0);
    expect(finished.outcome).toEqual({
      fetched: finished.outcome.inserted,
      inserted: finished.outcome.inserted,
      skipped: 0,
      filtered: 0,
      waiting: 0,
      notModified: false,
    });
    expect(finished).not.toHaveProperty('error');

    // Finished a moment ago: the next click joins it instead of fetching again.
    expect((await importNow(publisherId)).json()).toEqual({ jobId });
    expect(server.requestsTo('/guardian.rss')).toHaveLength(1);
  });

  it('names the job after the publisher for the queue dashboard', async () => {
    const publisherId = await insertPublisher('Daily Planet', '/guardian.rss');
    const { jobId } = (await importNow(publisherId)).json();
    const job = await app.feedImportQueue?.getJob(jobId);
    expect(job?.data).toMatchObject({ publisherId, publisherName: 'Daily Planet', trigger: 'manual' });
    await untilFinished(publisherId, jobId);
  });

  it('reports a failure with its code and the reason in words', async () => {
    const publisherId = await insertPublisher('Not a feed', '/not-a-feed');
    const { jobId } = (await importNow(publisherId)).json();
    const finished = await untilFinished(publisherId, jobId);
    expect(finished).toMatchObject({
      state: 'failed',
      error: {
        code: 'NOT_A_FEED',
        message: 'The address answered, but not with an RSS, Atom or JSON feed.',
        detail: expect.any(String),
      },
    });
    expect(finished).not.toHaveProperty('outcome');
  });

  it("answers 404 for another publisher's job or an unknown one, 400 for a malformed id", async () => {
    const owner = await insertPublisher('Owner', '/guardian.rss');
    const other = await insertPublisher('Other', '/guardian.rss');
    const { jobId } = (await importNow(owner)).json();
    const foreign = await status(other, jobId);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('IMPORT_JOB_NOT_FOUND');
    expect((await status(owner, 'no-such-job')).statusCode).toBe(404);
    expect((await status(owner, 'bad:id')).statusCode).toBe(400);
    await untilFinished(owner, jobId);
  });
});
