import { createRedisConnection } from '@newsroom/queue';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { insertArticle, insertSite, issueSiteKey } from '../support/content-fixtures';
import { insertAdmin, insertPublisher } from '../support/dashboard-accounts';
import { pausableProxy } from '../support/pausable-proxy';
import { createTestApp, testApiKey } from '../support/test-app';

const limits = {
  RATE_LIMIT_API_KEY_FAILURES: '3/1m',
  RATE_LIMIT_TEST_FEED: '2/1m',
  RATE_LIMIT_CLIENT_ALL: '2/1m',
};
const { app, db, config, close } = await createTestApp({ env: limits });
// A second API replica: same database, Redis and key prefix, its own connection. Limits are shared.
const replicaRedis = createRedisConnection(config.redis.url, 'producer');
const replica = await buildApp({ config, db, redis: replicaRedis });
afterAll(async () => {
  await replica.close();
  replicaRedis.disconnect();
  await close();
});

const site = await insertSite(db, 'alpha');
await insertArticle(db, { slug: 'first', siteIds: [site] });
let address = 0;
/** A fresh client address per test, so counts never carry over between tests. */
const newAddress = () => `10.9.0.${++address}`;
const newKey = async () => (await issueSiteKey(db, site)).key;

const read = (url: string, key: string | undefined, remoteAddress = '10.8.0.1', target = app) =>
  target.inject({
    method: 'GET',
    url: `/api/v1/client${url}`,
    headers: key === undefined ? {} : { 'x-api-key': key },
    remoteAddress,
  });

function expectRateLimited(response: Awaited<ReturnType<typeof read>>, limit: number) {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toMatchObject({
    statusCode: 429,
    code: 'RATE_LIMITED',
    error: 'Too Many Requests',
  });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers['ratelimit-limit']).toBe(String(limit));
  expect(response.headers['ratelimit-remaining']).toBe('0');
  expect(Number(response.headers['ratelimit-reset'])).toBe(retryAfter);
}

describe('wrong API keys, per client address', () => {
  it('answers 401 with the remaining budget, then 429 RATE_LIMITED past the limit', async () => {
    const ip = newAddress();
    for (const remaining of [2, 1, 0]) {
      const wrong = await read('/posts', 'not-a-key', ip);
      expect(wrong.statusCode).toBe(401);
      expect(wrong.headers['ratelimit-remaining']).toBe(String(remaining));
    }
    expectRateLimited(await read('/posts', 'still-not-a-key', ip), 3);
    expectRateLimited(await read('/posts', undefined, ip), 3);
  });

  it('never refuses a valid key, and counts nothing for it', async () => {
    const ip = newAddress();
    for (let i = 0; i < 4; i++) await read('/posts', 'wrong', ip);
    const valid = await read('/posts', testApiKey, ip);
    expect(valid.statusCode).toBe(200);
    expect(valid.headers['ratelimit-limit']).toBeUndefined();
  });

  it('leaves other addresses alone and is shared by every replica', async () => {
    const ip = newAddress();
    await read('/posts', 'wrong', ip);
    await read('/posts', 'wrong', ip, replica);
    await read('/posts', 'wrong', ip);
    expectRateLimited(await read('/posts', 'wrong', ip, replica), 3);
    expect((await read('/posts', 'wrong', newAddress())).statusCode).toBe(401);
  });
});

describe('GET /client/all, per key', () => {
  it('answers 429 past the limit for that key only, with RateLimit headers before it', async () => {
    const key = await newKey();
    const first = await read('/all', key);
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('2');
    expect(first.headers['ratelimit-remaining']).toBe('1');
    expect((await read('/all', key, newAddress())).statusCode).toBe(200);
    const refused = await read('/all', key);
    expectRateLimited(refused, 2);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect((await read('/all', await newKey())).statusCode).toBe(200);
    // The other client routes have no limit by default: no Redis round trip, no headers.
    const page = await read('/posts', key);
    expect(page.statusCode).toBe(200);
    expect(page.headers['ratelimit-limit']).toBeUndefined();
  });

  it('does not count requests refused by validation', async () => {
    const key = await newKey();
    for (let i = 0; i < 3; i++) expect((await read('/all?page=1', key)).statusCode).toBe(400);
    expect((await read('/all', key)).statusCode).toBe(200);
  });
});

describe('the other client routes, when RATE_LIMIT_CLIENT is set', () => {
  it('share one budget per key', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_CLIENT: '3/1m' } });
    try {
      const otherSite = await insertSite(limited.db, 'beta');
      await insertArticle(limited.db, { slug: 'b1', siteIds: [otherSite] });
      const key = (await issueSiteKey(limited.db, otherSite)).key;
      for (const url of ['/posts', '/article/b1', '/partner-articles']) {
        expect((await read(url, key, '10.8.0.1', limited.app)).statusCode, url).toBe(200);
      }
      expectRateLimited(await read('/posts', key, '10.8.0.1', limited.app), 3);
      expect((await read('/posts', testApiKey, '10.8.0.1', limited.app)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('feed previews, per dashboard user', () => {
  // A URL the preview refuses without any network traffic: the limit counts the attempt all the same.
  const preview = (token: string, url = '/api/v1/publisher/me/test-feed') =>
    app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}` },
      payload: { feedUrl: 'file:///etc/passwd' },
    });

  it('answers 429 past the limit, for that user only', async () => {
    const { token } = await insertPublisher(app, db);
    expect((await preview(token)).statusCode).toBe(422);
    expect((await preview(token)).statusCode).toBe(422);
    expectRateLimited(await preview(token), 2);
    const other = await insertPublisher(app, db);
    expect((await preview(other.token)).statusCode).toBe(422);
  });

  it("counts an administrator's previews of any publisher together", async () => {
    const admin = await insertAdmin(app, db);
    const a = await insertPublisher(app, db);
    const b = await insertPublisher(app, db);
    expect((await preview(admin.token, `/api/v1/publisher/${a.publisherId}/test-feed`)).statusCode).toBe(422);
    expect((await preview(admin.token, `/api/v1/publisher/${b.publisherId}/test-feed`)).statusCode).toBe(422);
    expectRateLimited(await preview(admin.token, `/api/v1/publisher/${a.publisherId}/test-feed`), 2);
  });
});

describe('with Redis unavailable', () => {
  it('skips every limit when Redis is down: client reads and previews are served', async () => {
    const down = await createTestApp({
      redisUrl: 'redis://127.0.0.1:1',
      env: { ...limits, RATE_LIMIT_CLIENT: '1/1m' },
    });
    try {
      const siteId = await insertSite(down.db, 'solo');
      await insertArticle(down.db, { slug: 'solo', siteIds: [siteId] });
      const key = (await issueSiteKey(down.db, siteId)).key;
      for (let i = 0; i < 4; i++) {
        expect((await read('/all', key, '10.8.0.1', down.app)).statusCode).toBe(200);
        expect((await read('/posts', key, '10.8.0.1', down.app)).statusCode).toBe(200);
        expect((await read('/posts', 'wrong', '10.8.0.1', down.app)).statusCode).toBe(401);
      }
      const { token } = await insertPublisher(down.app, down.db);
      for (let i = 0; i < 3; i++) {
        const response = await down.app.inject({
          method: 'POST',
          url: '/api/v1/publisher/me/test-feed',
          headers: { authorization: `Bearer ${token}` },
          payload: { feedUrl: 'file:///etc/passwd' },
        });
        expect(response.statusCode).toBe(422);
      }
    } finally {
      await down.close();
    }
  });

  it('does not wait on a Redis that stopped answering: the limit is skipped after a bounded wait', async () => {
    const proxy = await pausableProxy(new URL(config.redis.url));
    const hung = await createTestApp({ redisUrl: proxy.url, env: limits });
    try {
      const siteId = await insertSite(hung.db, 'hung');
      const key = (await issueSiteKey(hung.db, siteId)).key;
      expect((await read('/all', key, '10.8.0.1', hung.app)).headers['ratelimit-remaining']).toBe('1');
      proxy.pause();
      for (let i = 0; i < 3; i++) {
        const response = await read('/all', key, '10.8.0.1', hung.app);
        expect(response.statusCode).toBe(200);
        // Not counted: the plugin reports the whole budget left and no window.
        expect(response.headers['ratelimit-remaining']).toBe('2');
        expect(response.headers['ratelimit-reset']).toBe('0');
      }
      proxy.resume();
      expectRateLimited(await read('/all', key, '10.8.0.1', hung.app), 2);
    } finally {
      proxy.resume();
      await hung.close();
      await proxy.close();
    }
  });
});
