import { loadWorkerConfig } from '@newsroom/config';
import { createRedisConnection } from '@newsroom/queue';
import { startFeedServer } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { createImportWorker } from '../../../worker/src/imports/import-worker';
import { bearer, insertAdmin, insertPublisher } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

// What the dashboard's publisher routes say about a feed gone (410) or moved (301/308 three times):
// the import status, the publisher detail's feed health and the publisher's history.
const { app, db, config, close } = await createTestApp({ env: { FEED_ALLOW_PRIVATE_ADDRESSES: 'true' } });
const rss = (tag: string) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>${tag}</title><link>https://${tag}.example/</link><item><guid>${tag}-1</guid><title>One</title></item></channel></rss>`;
const server = await startFeedServer({
  '/gone.rss': { body: '', status: 410 },
  '/fresh.rss': { body: rss('fresh') },
  '/old.rss': { body: '', status: 308, headers: { location: '/new.rss' } },
  '/new.rss': { body: rss('new') },
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
});
afterAll(async () => {
  await worker.close();
  await app.feedImportQueue?.obliterate({ force: true });
  workerConnection.disconnect();
  await close();
  await server.close();
});

const asAdmin = bearer((await insertAdmin(app, db)).token);
const get = (url: string, headers = asAdmin) => app.inject({ method: 'GET', url, headers });

async function importNowAndWait(publisherId: string) {
  const { jobId } = (
    await app.inject({ method: 'POST', url: `/api/v1/publisher/${publisherId}/import`, headers: asAdmin })
  ).json();
  for (let i = 0; i < 400; i++) {
    const body = (await get(`/api/v1/publisher/${publisherId}/import/${jobId}`)).json();
    if (body.state === 'completed' || body.state === 'failed') return body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${jobId} did not finish`);
}

describe('a feed whose server answers 410 Gone', () => {
  it('is reported in words by the import status, the publisher detail and the history; a new URL clears it', async () => {
    const account = await insertPublisher(app, db, { approved: true });
    await db
      .updateTable('publishers')
      .set({ feed_url: server.url('/gone.rss') })
      .where('id', '=', account.publisherId)
      .execute();
    const status = await importNowAndWait(account.publisherId);
    expect(status).toMatchObject({ state: 'failed', error: { code: 'FEED_GONE' } });
    expect(status.error.message).toMatch(/removed for good \(HTTP 410 Gone\).*no longer fetched/);

    const detail = (await get(`/api/v1/publisher/${account.publisherId}`)).json();
    expect(detail.feedHealth).toMatchObject({
      lastResult: 'failed',
      lastError: { code: 'FEED_GONE' },
      gone: { since: expect.any(String), message: expect.stringMatching(/410 Gone/) },
    });
    // The publisher sees the same on its own page.
    const own = (await get('/api/v1/publisher/me', bearer(account.token))).json();
    expect(own.feedHealth.gone.message).toMatch(/Save a new feed address/);

    const history = (await get(`/api/v1/publisher/${account.publisherId}/history`)).json();
    expect(history.data).toEqual([
      { at: expect.any(String), event: 'feed-gone', detail: { feedUrl: server.url('/gone.rss') } },
    ]);

    const saved = await app.inject({
      method: 'PUT',
      url: '/api/v1/publisher/me/feed',
      headers: bearer(account.token),
      payload: { feedUrl: server.url('/fresh.rss') },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().feedHealth.gone).toBeNull();
  });
});

describe('GET /api/v1/publisher/:id/history', () => {
  it('shows a feed URL moved after 3 consecutive permanent redirects', async () => {
    const account = await insertPublisher(app, db, { approved: true });
    await db
      .updateTable('publishers')
      .set({ feed_url: server.url('/old.rss') })
      .where('id', '=', account.publisherId)
      .execute();
    // Import now joins a job finished less than a minute ago: add the fetches straight to the queue.
    for (let fetch = 0; fetch < 3; fetch++) {
      const job = await app.feedImportQueue?.add('fetch-feed', {
        publisherId: account.publisherId,
        trigger: 'manual',
      });
      for (let i = 0; i < 400 && !(await job?.isCompleted()); i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    const history = (await get(`/api/v1/publisher/${account.publisherId}/history`)).json();
    expect(history.data).toEqual([
      {
        at: expect.any(String),
        event: 'feed-url-moved',
        detail: { from: server.url('/old.rss'), to: server.url('/new.rss'), afterFetches: 3 },
      },
    ]);
    expect((await get(`/api/v1/publisher/${account.publisherId}`)).json().feedUrl).toBe(
      server.url('/new.rss'),
    );
  });

  it('is 404 for an unknown publisher and 403 for a publisher login', async () => {
    expect((await get('/api/v1/publisher/00000000-0000-4000-8000-000000000000/history')).statusCode).toBe(
      404,
    );
    const account = await insertPublisher(app, db);
    expect(
      (await get(`/api/v1/publisher/${account.publisherId}/history`, bearer(account.token))).statusCode,
    ).toBe(403);
  });
});
