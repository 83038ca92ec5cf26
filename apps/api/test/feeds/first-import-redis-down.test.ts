import { hostAndPort, startTcpProxy, testRedis, throughProxy } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, insertAdmin, insertPublisher } from '../support/dashboard-accounts';
import { createTestApp, type TestApp } from '../support/test-app';

// Nothing listens on port 1: this app's producer connection fails at once.
const down = await createTestApp({ redisUrl: 'redis://127.0.0.1:1' });
// This app's Redis goes through a TCP proxy this file pauses (a hung Redis; never the shared server itself).
const redisTarget = testRedis();
const redisServer = hostAndPort(redisTarget.url, 6379);
const proxy = await startTcpProxy(redisServer.host, redisServer.port);
const hung = await createTestApp({ redisUrl: throughProxy(redisTarget.url, proxy) });
afterAll(async () => {
  proxy.resume();
  await down.close();
  await hung.close();
  await proxy.close();
});

/** Approves a publisher with a feed, then saves a new feed URL as that publisher; both must answer 200. */
async function approveAndSaveFeed({ app, db }: Pick<TestApp, 'app' | 'db'>) {
  const admin = await insertAdmin(app, db);
  const account = await insertPublisher(app, db);
  await db
    .updateTable('publishers')
    .set({ feed_url: 'https://planet.example/feed' })
    .where('id', '=', account.publisherId)
    .execute();
  const approved = await app.inject({
    method: 'PUT',
    url: `/api/v1/publisher/${account.publisherId}/approve`,
    headers: bearer(admin.token),
  });
  expect(approved.statusCode).toBe(200);
  expect(approved.json()).toMatchObject({ approved: true, state: 'approved' });

  const saved = await app.inject({
    method: 'PUT',
    url: '/api/v1/publisher/me/feed',
    headers: bearer(account.token),
    payload: { feedUrl: 'https://planet.example/new-feed' },
  });
  expect(saved.statusCode).toBe(200);
  expect(saved.json()).toMatchObject({ feedUrl: 'https://planet.example/new-feed' });
}

describe('first import while Redis is unavailable', () => {
  it('Redis down: approval and a new feed URL still answer 200 (the hourly import picks the publisher up)', async () => {
    await approveAndSaveFeed(down);
  });

  it('Redis hung: the bounded wait gives up and both still answer 200', async () => {
    await hung.app.feedImportQueue?.waitUntilReady();
    proxy.pause();
    try {
      await approveAndSaveFeed(hung);
    } finally {
      proxy.resume();
    }
  });
});
