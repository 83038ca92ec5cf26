import { Worker } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { insertAdmin, insertPublisher } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

const { app, db, config, close } = await createTestApp({ fastify: { trustProxy: true } });
const queue = app.feedImportQueue;
if (!queue) throw new Error('the test app has no feed-import queue');
afterAll(async () => {
  await queue.obliterate({ force: true });
  await close();
});

const adminToken = (await insertAdmin(app, db)).token;

const login = (token: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/admin/queues/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams({ token }).toString(),
  });
const cookieOf = async (token: string) => {
  const cookie = (await login(token)).cookies.find((c) => c.name === 'queue_dashboard_token');
  if (!cookie) throw new Error('no dashboard cookie');
  return `${cookie.name}=${cookie.value}`;
};
const board = (method: 'GET' | 'POST' | 'PUT', url: string, cookie?: string, payload?: object) =>
  app.inject({
    method,
    url,
    headers: { ...(cookie ? { cookie } : {}), accept: 'application/json' },
    ...(payload ? { payload } : {}),
  });

describe('queue dashboard access', () => {
  it('sends a browser without the cookie to the login form', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/admin/queues',
      headers: { accept: 'text/html' },
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/admin/queues/login');
    const form = await app.inject({ method: 'GET', url: '/admin/queues/login' });
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<form method="post" action="/admin/queues/login">');
  });

  it('refuses the board API without the cookie, with a bearer token, or with a bad cookie', async () => {
    expect((await board('GET', '/admin/queues/api/queues')).statusCode).toBe(401);
    const bearer = await app.inject({
      method: 'GET',
      url: '/admin/queues/api/queues',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(bearer.statusCode).toBe(401);
    const forged = await board('GET', '/admin/queues/api/queues', 'queue_dashboard_token=not.a.jwt');
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(forged.body).not.toMatch(/stack|at \w+ \(/);
  });

  it('refuses to log in a publisher or a bad token', async () => {
    const publisher = await login((await insertPublisher(app, db)).token);
    expect(publisher.statusCode).toBe(401);
    expect(publisher.cookies).toEqual([]);
    expect((await login('garbage')).statusCode).toBe(401);
  });

  it('logs an administrator in with an HttpOnly, SameSite=Strict cookie scoped to the board', async () => {
    const response = await login(adminToken);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/admin/queues');
    const [cookie] = response.cookies;
    expect(cookie).toMatchObject({
      name: 'queue_dashboard_token',
      value: adminToken,
      path: '/admin/queues',
      httpOnly: true,
      sameSite: 'Strict',
    });
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.maxAge).toBeGreaterThan(0);
    expect(cookie?.maxAge).toBeLessThanOrEqual(12 * 3600);
  });

  it('marks the cookie Secure behind https', async () => {
    const [cookie] = (await login(adminToken, { 'x-forwarded-proto': 'https' })).cookies;
    expect(cookie?.secure).toBe(true);
  });

  it('shows the queue to a logged-in administrator', async () => {
    const response = await board('GET', '/admin/queues/api/queues', await cookieOf(adminToken));
    expect(response.statusCode).toBe(200);
    expect(response.json().queues.map((q: { name: string }) => q.name)).toEqual(['feed-import']);
    const page = await app.inject({
      method: 'GET',
      url: '/admin/queues',
      headers: { cookie: await cookieOf(adminToken), accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
  });

  it('stops letting a disabled administrator in at once', async () => {
    const other = await insertAdmin(app, db);
    const cookie = await cookieOf(other.token);
    await db.updateTable('users').set({ disabled_at: new Date() }).where('id', '=', other.id).execute();
    expect((await board('GET', '/admin/queues/api/queues', cookie)).statusCode).toBe(401);
  });

  it('logs out by clearing the cookie', async () => {
    const response = await app.inject({ method: 'POST', url: '/admin/queues/logout' });
    expect(response.statusCode).toBe(303);
    expect(response.cookies[0]).toMatchObject({ name: 'queue_dashboard_token', value: '' });
  });
});

describe('queue dashboard actions', () => {
  it('adds a fetch job by hand', async () => {
    const response = await board(
      'POST',
      '/admin/queues/api/queues/feed-import/add',
      await cookieOf(adminToken),
      {
        name: 'fetch-feed',
        data: { publisherId: '0b7c4a52-6f0e-4d7e-9c39-3c1d2a1e0a01', trigger: 'manual' },
        options: {},
      },
    );
    expect(response.statusCode).toBe(200);
    const jobId = response.json().job.id;
    expect((await queue.getJob(jobId))?.data).toMatchObject({ trigger: 'manual' });
    await queue.drain();
  });

  it('retries a failed job', async () => {
    const job = await queue.add('fetch-feed', { publisherId: 'x', trigger: 'manual' }, { attempts: 1 });
    const failing = new Worker(
      queue.name,
      async () => {
        throw new Error('boom');
      },
      { connection: { url: config.redis.url }, prefix: config.redis.queuePrefix },
    );
    while ((await job.getState()) !== 'failed') await new Promise((r) => setTimeout(r, 20));
    await failing.close();
    const response = await board(
      'PUT',
      `/admin/queues/api/queues/feed-import/${job.id}/retry`,
      await cookieOf(adminToken),
    );
    expect(response.statusCode).toBe(204);
    expect(await job.getState()).toBe('waiting');
  });
});
