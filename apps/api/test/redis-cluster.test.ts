import { startRedisCluster } from '@newsroom/test-support';
import { Cluster } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { LoginLimiter } from '../src/routes/auth/login-limiter';
import { bearer, insertAdmin } from './support/dashboard-accounts';
import { createTestApp } from './support/test-app';

// The API's uses of Redis on a three-master Redis Cluster (REDIS_CLUSTER_NODES): the login limiter's multi-key
// script, transaction and per-master scan, the rate limits' script, and the import queue with its manual-fetch key.

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const cluster = await startRedisCluster(3);
const { app, db, close } = await createTestApp({
  env: {
    REDIS_CLUSTER_NODES: cluster.nodes.join(','),
    QUEUE_PREFIX: 'api',
    RATE_LIMIT_API_KEY_FAILURES: '2/1m',
  },
});
afterAll(async () => {
  await app.feedImportQueue?.obliterate({ force: true });
  await close();
  await cluster.stop();
});
const password = 'correct horse battery';
const admin = await insertAdmin(app, db, { password });
const login = (secret: string, remoteAddress = '203.0.113.7') =>
  app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: admin.email, password: secret },
    remoteAddress,
  });

describe('the API on a Redis Cluster', () => {
  it('connects as a cluster', () => {
    expect(app.redis).toBeInstanceOf(Cluster);
    expect(app.config.redis.queuePrefix).toBe('{api}');
  });

  it('counts failed logins, locks out at the limit, and an administrator reset clears them', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 6; n++) statuses.push((await login('wrong password')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await login(password)).statusCode).toBe(429);
    // What `pnpm admin:create` does on a password reset: SCAN on every master, DEL of keys under one tag.
    await new LoginLimiter(app.redis, app.config.redis.queuePrefix).clearEmail(admin.email);
    expect((await login(password)).statusCode).toBe(200);
  });

  it('rate-limits wrong client keys', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 3; n++) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/v1/client/posts',
        headers: { 'x-api-key': 'nsk_wrong_key_0123456789' },
        remoteAddress: '198.51.100.9',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 429]);
  });

  it('queues a manual import once however often it is asked', async () => {
    const { id } = await db
      .insertInto('publishers')
      .values({ name: 'Planet', feed_url: 'https://planet.example/feed', approved: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    const importNow = () =>
      app.inject({ method: 'POST', url: `/api/v1/publisher/${id}/import`, headers: bearer(admin.token) });
    const first = await importNow();
    expect(first.statusCode).toBe(202);
    expect((await importNow()).json()).toEqual(first.json());
    expect(await app.feedImportQueue?.getWaitingCount()).toBe(1);
  });

  it('keeps every key on one master', async () => {
    const masters = (app.redis as Cluster).nodes('master');
    const keys = await Promise.all(masters.map((node) => node.keys('*')));
    const holding = keys.filter((list) => list.length > 0);
    expect(holding).toHaveLength(1);
    expect(holding[0]?.every((key) => key.startsWith('{api}:'))).toBe(true);
  });
});
