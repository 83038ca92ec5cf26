import { afterAll, describe, expect, it } from 'vitest';
import { createDashboardUsers } from './support/dashboard-users';
import { createTestApp } from './support/test-app';

const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken } = await createDashboardUsers(testApp);

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${adminToken}` },
    ...(payload ? { payload } : {}),
  });
const createSite = async (payload: object) => {
  const response = await call('POST', '/api/v1/site', payload);
  expect(response.statusCode).toBe(201);
  return response.json();
};
const unknownId = '00000000-0000-4000-8000-000000000000';

describe('child sites', () => {
  it('creates a site with an optional domain', async () => {
    const response = await call('POST', '/api/v1/site', {
      slug: 'metro',
      name: 'Metro News',
      domain: 'metro.example.com',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(String),
      slug: 'metro',
      name: 'Metro News',
      domain: 'metro.example.com',
      language: 'en',
      articleUrlTemplate: null,
      allowedOrigins: [],
      publicBaseUrl: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await createSite({ slug: 'sport-daily', name: 'Sport Daily' })).domain).toBeNull();
  });

  it('sets the article URL template and language used by feeds and sitemaps; refuses unusable ones with 400', async () => {
    const site = await createSite({ slug: 'feeds', name: 'Feeds', language: 'pt-BR' });
    expect(site).toMatchObject({ language: 'pt-BR', articleUrlTemplate: null });
    const noDomain = await call('PUT', `/api/v1/site/${site.id}`, {
      articleUrlTemplate: 'https://{domain}/n/{slug}',
    });
    expect(noDomain.statusCode).toBe(400);
    expect(noDomain.json().code).toBe('INVALID_ARTICLE_URL_TEMPLATE');
    const set = await call('PUT', `/api/v1/site/${site.id}`, {
      domain: 'feeds.example.com',
      articleUrlTemplate: 'https://{domain}/n/{slug}',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().articleUrlTemplate).toBe('https://{domain}/n/{slug}');
    // Dropping the domain the template needs is refused too.
    expect((await call('PUT', `/api/v1/site/${site.id}`, { domain: null })).statusCode).toBe(400);
    for (const articleUrlTemplate of [
      'ftp://x.example.com/{slug}',
      'https://x.example.com/news',
      '/news/{slug}',
      'https://{slug}',
    ]) {
      const response = await call('PUT', `/api/v1/site/${site.id}`, { articleUrlTemplate });
      expect(response.statusCode, articleUrlTemplate).toBe(400);
    }
    expect((await call('PUT', `/api/v1/site/${site.id}`, { language: 'English' })).statusCode).toBe(400);
    expect(
      (await call('PUT', `/api/v1/site/${site.id}`, { articleUrlTemplate: null })).json().articleUrlTemplate,
    ).toBeNull();
  });

  it('lists every site by slug, and reads one by id', async () => {
    const site = await createSite({ slug: 'arts', name: 'Arts' });
    const list = await call('GET', '/api/v1/site');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((s: { slug: string }) => s.slug)).toEqual([
      'arts',
      'feeds',
      'metro',
      'sport-daily',
    ]);
    const one = await call('GET', `/api/v1/site/${site.id}`);
    expect(one.json()).toEqual(site);
  });

  it('refuses a slug another site has with 409 SITE_SLUG_TAKEN', async () => {
    const response = await call('POST', '/api/v1/site', { slug: 'metro', name: 'Another Metro' });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('SITE_SLUG_TAKEN');
  });

  it('edits slug, name and domain; a renamed slug shows at once in articles hosted there', async () => {
    const site = await createSite({ slug: 'old-name', name: 'Old', domain: 'old.example.com' });
    const article = await call('POST', '/api/v1/article', { title: 'Hosted', hostSites: ['old-name'] });
    const response = await call('PUT', `/api/v1/site/${site.id}`, {
      slug: 'new-name',
      name: 'New',
      domain: null,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: site.id, slug: 'new-name', name: 'New', domain: null });
    expect((await call('GET', `/api/v1/article/${article.json().id}`)).json().hostSites).toEqual([
      'new-name',
    ]);

    const taken = await call('PUT', `/api/v1/site/${site.id}`, { slug: 'metro' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('SITE_SLUG_TAKEN');
  });

  it('deletes a site: the articles stay, their links to it go', async () => {
    const site = await createSite({ slug: 'closing-down', name: 'Closing' });
    const article = (
      await call('POST', '/api/v1/article', { title: 'Survivor', hostSites: ['closing-down', 'metro'] })
    ).json();
    const response = await call('DELETE', `/api/v1/site/${site.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await call('GET', `/api/v1/site/${site.id}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/article/${article.id}`)).json().hostSites).toEqual(['metro']);
    const links = await db.selectFrom('article_sites').where('site_id', '=', site.id).selectAll().execute();
    expect(links).toEqual([]);
  });

  it('answers unknown ids with 404 SITE_NOT_FOUND and malformed ones with 400', async () => {
    for (const [method, payload] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
      const missing = await call(method, `/api/v1/site/${unknownId}`, payload);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().code).toBe('SITE_NOT_FOUND');
      expect((await call(method, '/api/v1/site/metro', payload)).statusCode).toBe(400);
    }
  });

  it.each([
    ['no slug', { name: 'No slug' }],
    ['no name', { slug: 'nameless' }],
    ['an upper-case slug', { slug: 'Metro', name: 'x' }],
    ['a slug with an underscore', { slug: 'metro_news', name: 'x' }],
    ['a slug with a leading dash', { slug: '-metro', name: 'x' }],
    ['a slug over 63 characters', { slug: 'a'.repeat(64), name: 'x' }],
    ['a blank name', { slug: 'blank', name: '  ' }],
    ['a name over 100 characters', { slug: 'long', name: 'x'.repeat(101) }],
    ['a domain with a scheme', { slug: 'scheme', name: 'x', domain: 'https://scheme.example.com' }],
    ['a domain with a path', { slug: 'path', name: 'x', domain: 'example.com/news' }],
    ['a domain with a port', { slug: 'port', name: 'x', domain: 'example.com:8080' }],
    ['a single-label domain', { slug: 'single', name: 'x', domain: 'localhost' }],
    ['an unknown property', { slug: 'extra', name: 'x', apiKey: 'k' }],
  ])('refuses to create a site with %s (400)', async (_name, payload) => {
    const response = await call('POST', '/api/v1/site', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });

  it('refuses an edit with no field or an unknown one (400)', async () => {
    const site = await createSite({ slug: 'edit-target', name: 'Edit target' });
    expect((await call('PUT', `/api/v1/site/${site.id}`, {})).statusCode).toBe(400);
    expect((await call('PUT', `/api/v1/site/${site.id}`, { id: unknownId })).statusCode).toBe(400);
  });
});
