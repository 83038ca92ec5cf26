import { afterAll, describe, expect, it } from 'vitest';
import { createDashboardUsers } from './support/dashboard-users';
import { createTestApp } from './support/test-app';

const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken } = await createDashboardUsers(testApp);
await db.insertInto('sites').values({ slug: 'metro', name: 'Metro' }).execute();

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, payload?: object, extra: Record<string, string> = {}) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${adminToken}`, ...extra },
    ...(payload === undefined ? {} : { payload }),
  });
const edit = (id: string, payload: object, ifMatch?: string) =>
  call('PUT', `/api/v1/article/${id}`, payload, ifMatch === undefined ? {} : { 'if-match': ifMatch });

async function newDraft(title = 'Versioned story') {
  const response = await call('POST', '/api/v1/article', { title, body: '<p>v1</p>' });
  expect(response.statusCode).toBe(201);
  return { id: response.json().id as string, etag: response.headers.etag as string };
}

describe('article versions (ETag) and If-Match', () => {
  it('answers a strong ETag on read and on every article-returning write; each change gives a new one', async () => {
    const { id, etag: created } = await newDraft();
    expect(created).toMatch(/^"[0-9]+"$/);
    const read = await call('GET', `/api/v1/article/${id}`);
    expect(read.headers.etag).toBe(created);
    expect((await call('GET', `/api/v1/article/${id}`)).headers.etag).toBe(created);

    const seen = new Set([created]);
    const steps: [Method, string, object | undefined][] = [
      ['PUT', `/api/v1/article/${id}`, { body: '<p>v2</p>' }],
      ['POST', `/api/v1/article/host-site/${id}`, { hostSites: ['metro'] }],
      ['PUT', `/api/v1/article/publish/${id}`, undefined],
      ['PUT', `/api/v1/article/unpublish/${id}`, undefined],
    ];
    for (const [method, url, payload] of steps) {
      const response = await call(method, url, payload);
      expect(response.statusCode).toBe(200);
      const etag = response.headers.etag as string;
      expect(etag).toMatch(/^"[0-9]+"$/);
      expect(seen.has(etag)).toBe(false);
      seen.add(etag);
      expect((await call('GET', `/api/v1/article/${id}`)).headers.etag).toBe(etag);
    }
  });

  it('a site rename changes the version of the articles it hosts', async () => {
    const { id } = await newDraft('Hosted story');
    const hosted = await call('POST', `/api/v1/article/host-site/${id}`, { hostSites: ['metro'] });
    await db.updateTable('sites').set({ slug: 'metro-news' }).where('slug', '=', 'metro').execute();
    expect((await call('GET', `/api/v1/article/${id}`)).headers.etag).not.toBe(hosted.headers.etag);
    await db.updateTable('sites').set({ slug: 'metro' }).where('slug', '=', 'metro-news').execute();
  });

  it('saves with the current ETag, and refuses a stale one with 412 ARTICLE_CHANGED, writing nothing', async () => {
    const { id, etag: v1 } = await newDraft();
    const first = await edit(id, { title: 'First editor' }, v1);
    expect(first.statusCode).toBe(200);
    const v2 = first.headers.etag as string;
    expect(v2).not.toBe(v1);

    const stale = await edit(id, { title: 'Second editor', body: '<p>lost?</p>' }, v1);
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toEqual({
      statusCode: 412,
      code: 'ARTICLE_CHANGED',
      error: 'Precondition Failed',
      message: expect.stringContaining(id),
    });
    const current = await call('GET', `/api/v1/article/${id}`);
    expect(current.json()).toMatchObject({ title: 'First editor', body: '<p>v1</p>' });
    expect(current.headers.etag).toBe(v2);
  });

  it('without If-Match, or with *, the edit works as before', async () => {
    const { id } = await newDraft();
    await edit(id, { title: 'Moved on' });
    expect((await edit(id, { title: 'No header' })).statusCode).toBe(200);
    expect((await edit(id, { title: 'Star' }, '*')).statusCode).toBe(200);
  });

  it('accepts a list containing the current ETag; weak or malformed tags never match', async () => {
    const { id, etag } = await newDraft();
    expect((await edit(id, { title: 'Listed' }, `"1", ${etag}`)).statusCode).toBe(200);
    const current = (await call('GET', `/api/v1/article/${id}`)).headers.etag as string;
    for (const header of [`W/${current}`, current.slice(1, -1), '"abc"', '', ',']) {
      const response = await edit(id, { title: 'Weak' }, header);
      expect(response.statusCode, header).toBe(412);
    }
    expect((await call('GET', `/api/v1/article/${id}`)).json().title).toBe('Listed');
  });

  it('of two concurrent saves on one version, exactly one wins', async () => {
    const { id, etag } = await newDraft();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => edit(id, { title: `Writer ${i}` }, etag)),
    );
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes).toEqual([200, 412, 412, 412, 412, 412]);
    const winner = answers.find((answer) => answer.statusCode === 200);
    expect((await call('GET', `/api/v1/article/${id}`)).json().title).toBe(winner?.json().title);
  });

  it('an unknown article is 404 with or without If-Match', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await edit(unknown, { title: 'x' }, '"5"')).statusCode).toBe(404);
    expect((await edit(unknown, { title: 'x' })).statusCode).toBe(404);
  });

  it('documents the ETag header and the 412 in the OpenAPI document', async () => {
    const spec = (await app.inject({ method: 'GET', url: '/docs/json' })).json();
    const put = spec.paths['/api/v1/article/{id}'].put;
    expect(put.responses['412']).toBeDefined();
    expect(put.responses['200'].headers.etag).toBeDefined();
    expect(
      put.parameters.some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'if-match'),
    ).toBe(true);
    expect(spec.paths['/api/v1/article/{id}'].get.responses['200'].headers.etag).toBeDefined();
  });
});
