import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardUsers, insertImportedArticle } from './support/dashboard-users';
import { createTestApp } from './support/test-app';

const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken, publisherId } = await createDashboardUsers(testApp);
await db.insertInto('sites').values({ slug: 'metro', name: 'Metro News' }).execute();

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${adminToken}` },
    ...(payload ? { payload } : {}),
  });
const put = async (action: string, id: string) => call('PUT', `/api/v1/article/${action}/${id}`);
const unknownId = '00000000-0000-4000-8000-000000000000';

describe('manual article lifecycle over HTTP', () => {
  it('goes create -> edit -> host-site -> publish -> unpublish', async () => {
    const created = await call('POST', '/api/v1/article', { title: 'Council vote tonight' });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();

    const edited = await call('PUT', `/api/v1/article/${id}`, { body: '<p>Details</p>' });
    expect(edited.json()).toMatchObject({ status: 'draft', body: '<p>Details</p>' });

    const hosted = await call('POST', `/api/v1/article/host-site/${id}`, { hostSites: ['metro'] });
    expect(hosted.json()).toMatchObject({ status: 'draft', hostSites: ['metro'] });

    const before = Date.now();
    const published = await put('publish', id);
    expect(published.statusCode).toBe(200);
    expect(published.json()).toMatchObject({ id, status: 'published', hostSites: ['metro'] });
    expect(Date.parse(published.json().publishedAt)).toBeGreaterThanOrEqual(before - 1000);

    const unpublished = await put('unpublish', id);
    expect(unpublished.statusCode).toBe(200);
    expect(unpublished.json()).toMatchObject({ status: 'draft', publishedAt: null, hostSites: ['metro'] });

    // A draft that was unpublished can be published again, with a new publishedAt.
    expect((await put('publish', id)).json().status).toBe('published');
  });

  it('edits a published article without changing its status', async () => {
    const { id } = (await call('POST', '/api/v1/article', { title: 'Live correction' })).json();
    await put('publish', id);
    const edited = await call('PUT', `/api/v1/article/${id}`, { title: 'Live correction (updated)' });
    expect(edited.json()).toMatchObject({ status: 'published', title: 'Live correction (updated)' });
  });
});

describe('review queue of imported articles', () => {
  it('lists pending imported articles, oldest first, and nothing else', async () => {
    const first = await insertImportedArticle(testApp, publisherId, 'Queue first');
    const second = await insertImportedArticle(testApp, publisherId, 'Queue second');
    await insertImportedArticle(testApp, publisherId, 'Already live', 'published');
    await call('POST', '/api/v1/article', { title: 'A manual draft' });

    const response = await call('GET', '/api/v1/article/pending');
    expect(response.statusCode).toBe(200);
    const { data, meta } = response.json();
    expect(data.map((a: { id: string }) => a.id)).toEqual([first.id, second.id]);
    expect(data[0]).toMatchObject({
      status: 'pending',
      isAggregated: true,
      source: 'Daily Planet',
      sourceUrl: expect.stringMatching(/^https:\/\/planet\.example\//),
      rssFeedGuid: expect.any(String),
    });
    expect(data[0]).not.toHaveProperty('body');
    expect(meta.pagination).toEqual({ page: 1, limit: 20, pages: 1, total: 2, next: null, prev: null });

    const paged = (await call('GET', '/api/v1/article/pending?limit=1&page=2')).json();
    expect(paged.data.map((a: { id: string }) => a.id)).toEqual([second.id]);
    expect(paged.meta.pagination).toMatchObject({ pages: 2, next: null, prev: 1 });

    // Leave the queue empty for the tests that follow.
    await put('approve', first.id);
    await put('reject', second.id);
  });

  it('approves a pending article: it is published with publishedAt set, attribution kept', async () => {
    const pending = await insertImportedArticle(testApp, publisherId, 'To approve');
    const response = await put('approve', pending.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'published',
      isAggregated: true,
      source: 'Daily Planet',
      rssFeedGuid: pending.rssFeedGuid,
    });
    expect(response.json().publishedAt).not.toBeNull();
    expect((await call('GET', '/api/v1/article/pending')).json().data).toEqual([]);
  });

  it('rejects a pending article: it becomes rejected and leaves the queue', async () => {
    const pending = await insertImportedArticle(testApp, publisherId, 'To reject');
    const response = await put('reject', pending.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'rejected', publishedAt: null });
    expect((await call('GET', '/api/v1/article/pending')).json().data).toEqual([]);
  });

  it('refuses unknown query parameters on the queue', async () => {
    expect((await call('GET', '/api/v1/article/pending?status=draft')).statusCode).toBe(400);
  });
});

describe('transitions the lifecycle forbids', () => {
  let ids: Record<'draft' | 'published' | 'pending' | 'rejected', string>;
  beforeAll(async () => {
    const draft = (await call('POST', '/api/v1/article', { title: 'Draft state' })).json();
    const published = (await call('POST', '/api/v1/article', { title: 'Published state' })).json();
    await put('publish', published.id);
    const pending = await insertImportedArticle(testApp, publisherId, 'Pending state');
    const rejected = await insertImportedArticle(testApp, publisherId, 'Rejected state');
    await put('reject', rejected.id);
    ids = { draft: draft.id, published: published.id, pending: pending.id, rejected: rejected.id };
  });

  it.each([
    ['publish', 'published'],
    ['publish', 'pending'],
    ['publish', 'rejected'],
    ['unpublish', 'draft'],
    ['unpublish', 'pending'],
    ['unpublish', 'rejected'],
    ['approve', 'draft'],
    ['approve', 'published'],
    ['approve', 'rejected'],
    ['reject', 'draft'],
    ['reject', 'published'],
    ['reject', 'rejected'],
  ] as const)('refuses to %s a %s article with 409 INVALID_TRANSITION', async (action, status) => {
    const response = await put(action, ids[status]);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'INVALID_TRANSITION',
      message: `Cannot ${action} an article that is ${status}`,
    });
    expect((await call('GET', `/api/v1/article/${ids[status]}`)).json().status).toBe(status);
  });

  it.each(['publish', 'unpublish', 'approve', 'reject'])(
    '%s: unknown id -> 404, malformed id -> 400',
    async (action) => {
      const missing = await put(action, unknownId);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().code).toBe('ARTICLE_NOT_FOUND');
      const malformed = await put(action, 'pending');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().code).toBe('VALIDATION_ERROR');
    },
  );

  it('publishes a draft once when two requests race: one 200, one 409', async () => {
    const { id } = (await call('POST', '/api/v1/article', { title: 'Raced' })).json();
    const codes = (await Promise.all([put('publish', id), put('publish', id)])).map((r) => r.statusCode);
    expect(codes.sort()).toEqual([200, 409]);
  });
});

describe('route order', () => {
  it('serves /article/pending as the queue, not as an article id', async () => {
    const response = await call('GET', '/api/v1/article/pending');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toHaveProperty('meta.pagination');
  });

  it('treats PUT /article/pending as an (invalid) article id, since only GET has a static pending route', async () => {
    const response = await call('PUT', '/api/v1/article/pending', { title: 'x' });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });
});
