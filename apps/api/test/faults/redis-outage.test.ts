import { hostAndPort, startTcpProxy, testRedis, throughProxy } from '@newsroom/test-support';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { insertArticle } from '../support/content-fixtures';
import { bearer, insertAdmin } from '../support/dashboard-accounts';
import { createTestApp, testApiKey } from '../support/test-app';

// The API's Redis connection goes through a TCP proxy this file controls (never the shared Redis).
const redisTarget = testRedis();
const redisServer = hostAndPort(redisTarget.url, 6379);
const proxy = await startTcpProxy(redisServer.host, redisServer.port);
const { app, db, close } = await createTestApp({ redisUrl: throughProxy(redisTarget.url, proxy) });
afterAll(async () => {
  proxy.refuse(false);
  proxy.resume();
  await close();
  await proxy.close();
});

const password = 'correct horse battery';
const admin = await insertAdmin(app, db, { password });
await insertArticle(db, { slug: 'steady' });
const { id: publisherId } = await db
  .insertInto('publishers')
  .values({ name: 'Planet', feed_url: 'https://planet.example/feed', approved: true })
  .returning('id')
  .executeTakeFirstOrThrow();

const clientRead = (url: string) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': testApiKey } });
const login = () =>
  app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: admin.email, password } });
const importNow = () =>
  app.inject({
    method: 'POST',
    url: `/api/v1/publisher/${publisherId}/import`,
    headers: bearer(admin.token),
  });

/** The slowest a 503 may be: the 2 s Redis command bound, plus room for a loaded machine. */
const answerBoundMs = 2_000 + 2_000;

async function timed(request: () => Promise<LightMyRequestResponse>) {
  const started = Date.now();
  const response = await request();
  return { response, ms: Date.now() - started };
}

async function expectRedisOutageBehaviour() {
  // Client reads never touch Redis.
  for (const url of ['/posts', '/article/steady', '/all', '/posts?page=2']) {
    expect((await clientRead(url)).statusCode, url).toBe(200);
  }
  const ready = await timed(() => app.inject({ method: 'GET', url: '/ready' }));
  expect(ready.response.statusCode).toBe(200);
  expect(ready.response.json()).toEqual({ status: 'ready', checks: { postgres: 'up', redis: 'down' } });
  expect(ready.ms).toBeLessThan(answerBoundMs);

  // What needs Redis refuses quickly instead of hanging.
  const [loginOutcome, importOutcome] = await Promise.all([timed(login), timed(importNow)]);
  expect(loginOutcome.response.statusCode).toBe(503);
  expect(loginOutcome.response.json()).toMatchObject({ code: 'LOGIN_UNAVAILABLE' });
  expect(loginOutcome.response.headers['retry-after']).toBeDefined();
  expect(loginOutcome.ms).toBeLessThan(answerBoundMs);
  expect(importOutcome.response.statusCode).toBe(503);
  expect(importOutcome.response.json()).toMatchObject({ code: 'QUEUE_UNAVAILABLE' });
  expect(importOutcome.ms).toBeLessThan(answerBoundMs);
}

async function eventually(request: () => Promise<LightMyRequestResponse>, status: number, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const response = await request();
    if (response.statusCode === status || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeEach(async () => {
  proxy.refuse(false);
  proxy.resume();
  expect((await eventually(login, 200)).statusCode).toBe(200);
});

describe('Redis down for the API', () => {
  it('hung (no answer): client reads are served; logins and imports answer 503 within the bound', async () => {
    proxy.pause();
    await expectRedisOutageBehaviour();
    proxy.resume();
    expect((await eventually(login, 200)).statusCode).toBe(200);
    expect((await eventually(importNow, 202)).statusCode).toBe(202);
  });

  it('gone (connections cut and refused): the same, and it reconnects by itself', async () => {
    proxy.refuse(true);
    proxy.cutAll();
    await expectRedisOutageBehaviour();
    proxy.refuse(false);
    expect((await eventually(login, 200)).statusCode).toBe(200);
    expect((await eventually(importNow, 202)).statusCode).toBe(202);
  });
});
