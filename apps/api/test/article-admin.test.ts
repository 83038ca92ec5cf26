import { afterAll, describe, expect, it } from 'vitest';
import { createDashboardUsers } from './support/dashboard-users';
import { createTestApp } from './support/test-app';

const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken } = await createDashboardUsers(testApp);

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${adminToken}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const create = async (payload: object) => {
  const response = await call('POST', '/api/v1/article', payload);
  expect(response.statusCode).toBe(201);
  return response.json();
};
await db
  .insertInto('sites')
  .values([
    { slug: 'metro', name: 'Metro News' },
    { slug: 'sport', name: 'Sport Daily' },
  ])
  .execute();
const unknownId = '00000000-0000-4000-8000-000000000000';

describe('POST /api/v1/article', () => {
  it('creates a draft with a generated slug and every field in camelCase', async () => {
    const response = await call('POST', '/api/v1/article', {
      title: 'Mayor opens the new bridge',
      body: '<p>It is open.</p>',
      tags: [' city ', 'Bridges', 'city', 'bridges', 'x'],
      category: 'Local',
      section: 'News',
      thumbnail: 'https://cdn.example.com/uploads/2026/11/a.jpg',
      thumbnailMeta: { alt: 'The bridge at dusk' },
      image: 'http://cdn.example.com/uploads/2026/11/b.png',
      imageMeta: { alt: ' The bridge ', credit: 'Ann Lee', width: 1600, height: 900 },
      bylines: [{ name: 'Ann Lee' }],
      standfirst: 'A short dek',
    });
    expect(response.statusCode).toBe(201);
    const article = response.json();
    expect(article).toEqual({
      id: expect.any(String),
      title: 'Mayor opens the new bridge',
      slug: 'mayor-opens-the-new-bridge',
      body: '<p>It is open.</p>',
      tags: ['city', 'Bridges', 'x'],
      category: 'Local',
      section: 'News',
      thumbnail: 'https://cdn.example.com/uploads/2026/11/a.jpg',
      image: 'http://cdn.example.com/uploads/2026/11/b.png',
      thumbnailMeta: {
        alt: 'The bridge at dusk',
        caption: null,
        credit: null,
        width: null,
        height: null,
        focalPoint: null,
      },
      imageMeta: {
        alt: 'The bridge',
        caption: null,
        credit: 'Ann Lee',
        width: 1600,
        height: 900,
        focalPoint: null,
      },
      bylines: [{ name: 'Ann Lee', url: null, userId: null }],
      standfirst: 'A short dek',
      corrections: [],
      needsAltText: false,
      hostSites: [],
      status: 'draft',
      isAggregated: false,
      source: null,
      sourceUrl: null,
      rssFeedGuid: null,
      sourcePublishedAt: null,
      publishedAt: null,
      reviewedAt: null,
      reviewReason: null,
      embargoUntil: null,
      createdBy: expect.stringMatching(/^[0-9a-f-]{36}$/),
      submittedBy: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('needs only a title; the rest defaults to empty', async () => {
    const article = await create({ title: 'Just a headline' });
    expect(article).toMatchObject({ body: '', tags: [], category: null, thumbnail: null, hostSites: [] });
  });

  it('numbers the slug when the title was used before', async () => {
    const first = await create({ title: 'Storm warning' });
    const second = await create({ title: 'Storm warning' });
    expect([first.slug, second.slug]).toEqual(['storm-warning', 'storm-warning-2']);
  });

  it('links host sites given at creation', async () => {
    const article = await create({ title: 'Derby day', hostSites: ['sport', 'metro'] });
    expect(article.hostSites).toEqual(['metro', 'sport']);
  });

  it('refuses an unknown host site at creation, naming it, and creates nothing', async () => {
    const response = await call('POST', '/api/v1/article', {
      title: 'Orphan',
      hostSites: ['metro', 'nowhere'],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'UNKNOWN_SITE',
      message: expect.stringContaining('nowhere'),
    });
    const list = await call('GET', '/api/v1/article?q=orphan');
    expect(list.json().meta.pagination.total).toBe(0);
  });

  it.each([
    ['no title', {}],
    ['an empty title', { title: '' }],
    ['a blank title', { title: '   ' }],
    ['a title over 300 characters', { title: 'x'.repeat(301) }],
    ['a body over 200,000 characters', { title: 'Long', body: 'x'.repeat(200_001) }],
    ['more than 30 tags', { title: 'Tags', tags: Array.from({ length: 31 }, (_, i) => `t${i}`) }],
    ['an empty tag', { title: 'Tags', tags: [''] }],
    ['a tag over 60 characters', { title: 'Tags', tags: ['x'.repeat(61)] }],
    ['a tag that is an object', { title: 'Tags', tags: [{ name: 'x' }] }],
    ['a thumbnail that is not http(s)', { title: 'Img', thumbnail: 'javascript:alert(1)' }],
    ['an image that is not a URL', { title: 'Img', image: 'cat.jpg' }],
    ['an unknown property', { title: 'Sneaky', status: 'published' }],
    ['a slug (generated, not chosen, at creation)', { title: 'Chosen', slug: 'chosen' }],
    ['a malformed host site', { title: 'Sites', hostSites: ['Not A Slug'] }],
  ])('refuses %s with 400', async (_name, payload) => {
    const response = await call('POST', '/api/v1/article', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });

  it('refuses a body that is not JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/article',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      payload: '{"title": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('INVALID_JSON');
  });
});

describe('GET /api/v1/article/:id', () => {
  it('returns the article with its body', async () => {
    const created = await create({ title: 'Readable', body: '<p>Full text</p>' });
    const response = await call('GET', `/api/v1/article/${created.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(created);
  });

  it('answers an unknown id with 404 ARTICLE_NOT_FOUND and a malformed one with 400', async () => {
    const missing = await call('GET', `/api/v1/article/${unknownId}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('ARTICLE_NOT_FOUND');
    const malformed = await call('GET', '/api/v1/article/not-a-uuid');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('VALIDATION_ERROR');
  });
});

describe('PUT /api/v1/article/:id', () => {
  it('edits any of the fields and keeps slug and status', async () => {
    const created = await create({ title: 'First draft', tags: ['a'] });
    const response = await call('PUT', `/api/v1/article/${created.id}`, {
      title: 'Second draft',
      body: 'New body',
      tags: ['b', 'B', ' c '],
      category: 'Politics',
      section: null,
      thumbnail: 'https://cdn.example.com/t.webp',
      thumbnailMeta: { alt: 'A thumbnail' },
      image: null,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: created.id,
      slug: 'first-draft',
      status: 'draft',
      title: 'Second draft',
      body: 'New body',
      tags: ['b', 'c'],
      category: 'Politics',
      section: null,
      thumbnail: 'https://cdn.example.com/t.webp',
    });
    expect(Date.parse(response.json().updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
  });

  it('sets an explicit slug, and refuses one another article has with 409 SLUG_TAKEN', async () => {
    const first = await create({ title: 'Slug owner' });
    const second = await create({ title: 'Slug wanter' });
    const renamed = await call('PUT', `/api/v1/article/${second.id}`, { slug: 'a-better-slug-2026' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().slug).toBe('a-better-slug-2026');

    const taken = await call('PUT', `/api/v1/article/${second.id}`, { slug: first.slug });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('SLUG_TAKEN');
    // Setting an article's own slug again is not a conflict.
    expect((await call('PUT', `/api/v1/article/${first.id}`, { slug: first.slug })).statusCode).toBe(200);
  });

  it.each([
    ['no field at all', {}],
    ['an upper-case slug', { slug: 'Bad-Slug' }],
    ['a slug with a trailing dash', { slug: 'bad-' }],
    ['a slug with spaces', { slug: 'bad slug' }],
    ['a slug over 120 characters', { slug: 'a'.repeat(121) }],
    ['an empty title', { title: '' }],
    ['hostSites (they have their own route)', { hostSites: ['metro'] }],
    ['a status (the lifecycle routes change it)', { status: 'published' }],
    ['an unknown property', { author: 'me' }],
  ])('refuses %s with 400', async (_name, payload) => {
    const created = await create({ title: 'Validation target' });
    const response = await call('PUT', `/api/v1/article/${created.id}`, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });

  it('answers an unknown id with 404 and a malformed one with 400', async () => {
    expect((await call('PUT', `/api/v1/article/${unknownId}`, { title: 'x' })).statusCode).toBe(404);
    expect((await call('PUT', '/api/v1/article/123', { title: 'x' })).statusCode).toBe(400);
  });
});

describe('POST /api/v1/article/host-site/:id', () => {
  it('sets the host sites to exactly the list given, replacing the previous set', async () => {
    const created = await create({ title: 'Travelling article' });
    const first = await call('POST', `/api/v1/article/host-site/${created.id}`, {
      hostSites: ['sport', 'metro'],
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ id: created.id, status: 'draft', hostSites: ['metro', 'sport'] });

    const second = await call('POST', `/api/v1/article/host-site/${created.id}`, {
      hostSites: ['sport', 'sport'],
    });
    expect(second.json().hostSites).toEqual(['sport']);
    expect((await call('GET', `/api/v1/article/${created.id}`)).json().hostSites).toEqual(['sport']);
  });

  it('detaches the article from every site with an empty list', async () => {
    const created = await create({ title: 'Withdrawn everywhere', hostSites: ['metro'] });
    const response = await call('POST', `/api/v1/article/host-site/${created.id}`, { hostSites: [] });
    expect(response.statusCode).toBe(200);
    expect(response.json().hostSites).toEqual([]);
  });

  it('refuses an unknown site with 400 naming it, and leaves the sites as they were', async () => {
    const created = await create({ title: 'Stays put', hostSites: ['metro'] });
    const response = await call('POST', `/api/v1/article/host-site/${created.id}`, {
      hostSites: ['sport', 'atlantis'],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'UNKNOWN_SITE', message: 'Unknown host site: atlantis' });
    expect((await call('GET', `/api/v1/article/${created.id}`)).json().hostSites).toEqual(['metro']);
  });

  it('keeps a consistent set when two assignments race', async () => {
    const created = await create({ title: 'Contested' });
    const results = await Promise.all(
      [['metro'], ['sport'], ['metro', 'sport'], ['sport']].map((hostSites) =>
        call('POST', `/api/v1/article/host-site/${created.id}`, { hostSites }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
  });

  it.each([
    ['no hostSites', {}],
    ['hostSites that is an object', { hostSites: { metro: true } }],
    ['more than 50 sites', { hostSites: Array.from({ length: 51 }, (_, i) => `s${i}`) }],
    ['an unknown property', { hostSites: ['metro'], primary: 'metro' }],
  ])('refuses %s with 400', async (_name, payload) => {
    const created = await create({ title: 'Host validation' });
    expect((await call('POST', `/api/v1/article/host-site/${created.id}`, payload)).statusCode).toBe(400);
  });

  it('answers an unknown article with 404 and a malformed id with 400', async () => {
    const missing = await call('POST', `/api/v1/article/host-site/${unknownId}`, { hostSites: ['metro'] });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('ARTICLE_NOT_FOUND');
    expect((await call('POST', '/api/v1/article/host-site/x', { hostSites: ['metro'] })).statusCode).toBe(
      400,
    );
  });
});

describe('DELETE /api/v1/article/:id', () => {
  it('deletes the article and its site links, and answers 204 with no body', async () => {
    const created = await create({ title: 'Doomed', hostSites: ['metro'] });
    const response = await call('DELETE', `/api/v1/article/${created.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await call('GET', `/api/v1/article/${created.id}`)).statusCode).toBe(404);
    const links = await db
      .selectFrom('article_sites')
      .where('article_id', '=', created.id)
      .selectAll()
      .execute();
    expect(links).toEqual([]);
  });

  it('answers an unknown id with 404 (also the second time) and a malformed one with 400', async () => {
    const created = await create({ title: 'Deleted twice' });
    expect((await call('DELETE', `/api/v1/article/${created.id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/v1/article/${created.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/v1/article/zzz')).statusCode).toBe(400);
  });
});
