import { Worker } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { jobTitle } from '../../src/routes/admin/queue-dashboard.routes';
import { bearer, insertAdmin, insertPublisher } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

const { app, db, config, close } = await createTestApp();
const queue = app.feedImportQueue;
if (!queue) throw new Error('the test app has no feed-import queue');
afterAll(async () => {
  await queue.obliterate({ force: true });
  await close();
});

const password = 'correct horse battery';
const admin = await insertAdmin(app, db, { password });

let address = 0;
/** Signs in to the dashboard; returns the session cookie header and the CSRF token. */
async function signIn(email: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/session',
    payload: { email, password },
    remoteAddress: `10.3.0.${++address}`,
  });
  const cookie = response.cookies.find((c) => c.name === 'newsroom_session');
  if (!cookie) throw new Error(`no session cookie (${response.statusCode})`);
  return { cookie: `${cookie.name}=${cookie.value}`, csrfToken: response.json().csrfToken as string };
}
const adminSession = await signIn(admin.email);

const board = (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  headers: Record<string, string> = {},
  payload?: object,
) =>
  app.inject({
    method,
    url,
    headers: { accept: 'application/json', host: 'newsroom.example', ...headers },
    ...(payload ? { payload } : {}),
  });
/** A write as Bull Board's own page sends it: the session cookie and the browser's same-origin headers. */
const fromBoardPage = { cookie: adminSession.cookie, 'sec-fetch-site': 'same-origin' };

describe('queue dashboard access', () => {
  it('sends a browser without a session to the dashboard sign-in page, and back afterwards', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/admin/queues',
      headers: { accept: 'text/html' },
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/login?next=/admin/queues');
    const deep = await app.inject({
      method: 'GET',
      url: '/admin/queues/queue/feed-import?status=failed',
      headers: { accept: 'text/html' },
    });
    expect(deep.headers.location).toBe('/login?next=/admin/queues/queue/feed-import%3Fstatus%3Dfailed');
  });

  it('has no token-paste page any more', async () => {
    const old = await app.inject({
      method: 'GET',
      url: '/admin/queues/login',
      headers: { accept: 'text/html' },
    });
    expect(old.statusCode).toBe(404);
    expect(old.body).not.toContain('Administrator token');
    const post = await app.inject({
      method: 'POST',
      url: '/admin/queues/login',
      payload: { token: admin.token },
    });
    expect(post.statusCode).toBe(404);
    expect(post.cookies).toEqual([]);
  });

  it('opens the board to an administrator signed in to the dashboard, with no token to paste', async () => {
    const page = await app.inject({
      method: 'GET',
      url: '/admin/queues',
      headers: { cookie: adminSession.cookie, accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    // Nothing from another host (its web font is left out), and a way back to the dashboard.
    expect(page.body).not.toMatch(/(href|src)="(https?:)?\/\//);
    expect(page.body).toContain('<a href="/" style="color:#fff">← Back to the dashboard</a>');
    const queues = await board('GET', '/admin/queues/api/queues', { cookie: adminSession.cookie });
    expect(queues.statusCode).toBe(200);
    expect(queues.json().queues.map((q: { name: string }) => q.name)).toEqual(['feed-import']);
  });

  it('refuses the board API without a session, with a bearer token, or with a bad cookie', async () => {
    expect((await board('GET', '/admin/queues/api/queues')).statusCode).toBe(401);
    expect((await board('GET', '/admin/queues/api/queues', bearer(admin.token))).statusCode).toBe(401);
    const forged = await board('GET', '/admin/queues/api/queues', { cookie: 'newsroom_session=forged' });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(forged.body).not.toMatch(/stack|at \w+ \(/);
  });

  it('refuses a publisher signed in to the dashboard', async () => {
    const publisher = await insertPublisher(app, db, { password });
    const { cookie } = await signIn(publisher.email);
    const response = await board('GET', '/admin/queues/api/queues', { cookie });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('stops letting a disabled administrator in at once, and a signed-out session', async () => {
    const other = await insertAdmin(app, db, { password });
    const session = await signIn(other.email);
    expect((await board('GET', '/admin/queues/api/queues', { cookie: session.cookie })).statusCode).toBe(200);
    await app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/session',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
    });
    expect((await board('GET', '/admin/queues/api/queues', { cookie: session.cookie })).statusCode).toBe(401);
    const again = await signIn(other.email);
    await db.updateTable('users').set({ disabled_at: new Date() }).where('id', '=', other.id).execute();
    expect((await board('GET', '/admin/queues/api/queues', { cookie: again.cookie })).statusCode).toBe(401);
  });

  it("refuses writes that do not come from the board's own page (CSRF)", async () => {
    const job = await queue.add('fetch-feed', { publisherId: 'x', trigger: 'manual' });
    const retry = `/admin/queues/api/queues/feed-import/${job.id}/retry`;
    const crossSite: Record<string, string>[] = [
      { cookie: adminSession.cookie },
      { cookie: adminSession.cookie, 'sec-fetch-site': 'cross-site' },
      { cookie: adminSession.cookie, origin: 'https://evil.example' },
    ];
    for (const headers of crossSite) {
      const refused = await board('PUT', retry, headers);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'CSRF_TOKEN_INVALID' });
    }
    // Same origin by Origin alone (older browsers), or the dashboard's CSRF header, get through to Bull Board.
    const sameOrigin = await board('PUT', retry, {
      cookie: adminSession.cookie,
      origin: 'http://newsroom.example',
    });
    expect(sameOrigin.statusCode).toBe(400); // Bull Board: a waiting job is not retriable
    const withToken = await board('PUT', retry, {
      cookie: adminSession.cookie,
      'x-csrf-token': adminSession.csrfToken,
    });
    expect(withToken.statusCode).toBe(400);
    await queue.drain();
  });
});

describe('queue dashboard jobs', () => {
  it("lists a fetch job under its publisher's name", async () => {
    expect(jobTitle({ name: 'fetch-feed', data: { publisherName: 'Daily Planet' } })).toBe(
      'fetch-feed · Daily Planet',
    );
    expect(jobTitle({ name: 'fan-out-feeds', data: {} })).toBe('fan-out-feeds');
    await queue.add('fetch-feed', {
      publisherId: '0b7c4a52-6f0e-4d7e-9c39-3c1d2a1e0a01',
      publisherName: 'Daily Planet',
      trigger: 'manual',
    });
    const response = await board('GET', '/admin/queues/api/queues?activeQueue=feed-import&status=waiting', {
      cookie: adminSession.cookie,
    });
    const listed = response.json().queues[0].jobs.map((job: { name: string }) => job.name);
    expect(listed).toContain('fetch-feed · Daily Planet');
    await queue.drain();
  });

  it('adds a fetch job by hand', async () => {
    const response = await board('POST', '/admin/queues/api/queues/feed-import/add', fromBoardPage, {
      name: 'fetch-feed',
      data: { publisherId: '0b7c4a52-6f0e-4d7e-9c39-3c1d2a1e0a01', trigger: 'manual' },
      options: {},
    });
    expect(response.statusCode).toBe(200);
    const jobId = response.json().job.id;
    expect((await queue.getJob(jobId))?.data).toMatchObject({ trigger: 'manual' });
    await queue.drain();
  });

  it.each(['failed', 'completed'] as const)('retries a %s job', async (outcome) => {
    const job = await queue.add('fetch-feed', { publisherId: 'x', trigger: 'manual' }, { attempts: 1 });
    const worker = new Worker(
      queue.name,
      async () => {
        if (outcome === 'failed') throw new Error('boom');
        return { fetched: 0, inserted: 0, skipped: 0, notModified: true };
      },
      { connection: { url: config.redis.url }, prefix: config.redis.queuePrefix },
    );
    while ((await job.getState()) !== outcome) await new Promise((r) => setTimeout(r, 20));
    await worker.close();
    const response = await board(
      'PUT',
      `/admin/queues/api/queues/feed-import/${job.id}/retry`,
      fromBoardPage,
    );
    expect(response.statusCode).toBe(204);
    expect(await job.getState()).toBe('waiting');
    await queue.drain();
  });
});
