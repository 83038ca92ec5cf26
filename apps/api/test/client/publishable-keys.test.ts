import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite, issueSiteKey } from '../support/content-fixtures';
import { insertAdmin } from '../support/dashboard-accounts';
import { createTestApp, testApiKey } from '../support/test-app';

// Publishable site keys (issue 33): read-only keys whose answers a CDN may keep (public Cache-Control, surrogate
// keys naming what they hold), refused by the change feed; secret keys keep private answers.

const harness = await createTestApp({
  env: {
    CLIENT_PUBLIC_MAX_AGE: '15',
    CLIENT_PUBLIC_S_MAXAGE: '600',
    CLIENT_PUBLIC_STALE_WHILE_REVALIDATE: '45',
    RATE_LIMIT_CLIENT_ALL: 'off',
  },
});
afterAll(() => harness.close());
const { app, db } = harness;
const coast = await insertSite(db, 'pk-coast');
await db
  .updateTable('sites')
  .set({ article_url_template: 'https://coast.example/{slug}', allowed_origins: ['https://coast.example'] })
  .where('id', '=', coast)
  .execute();
const story = await insertArticle(db, { slug: 'pk-story', siteIds: [coast], tags: ['storm'] });
const publishable = (await issueSiteKey(db, coast, 'browser', 'publishable')).key;
const secret = (await issueSiteKey(db, coast, 'server')).key;

const get = (url: string, key: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key, ...headers } });

const shared = 'public, max-age=15, s-maxage=600, stale-while-revalidate=45';
const siteTag = `site:${coast}`;
const listTags = `${siteTag} list:${coast}`;

describe('publishable site keys', () => {
  it('are created by an administrator with the npk_ prefix and listed with their kind', async () => {
    const { token } = await insertAdmin(app, db);
    const auth = { authorization: `Bearer ${token}` };
    const created = await app.inject({
      method: 'POST',
      url: `/api/v1/site/${coast}/keys`,
      headers: auth,
      payload: { name: 'front end', kind: 'publishable' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ kind: 'publishable', key: expect.stringMatching(/^npk_/) });
    const plain = await app.inject({
      method: 'POST',
      url: `/api/v1/site/${coast}/keys`,
      headers: auth,
      payload: { name: 'back end' },
    });
    expect(plain.json()).toMatchObject({ kind: 'secret', key: expect.stringMatching(/^nsk_/) });
    const wrong = await app.inject({
      method: 'POST',
      url: `/api/v1/site/${coast}/keys`,
      headers: auth,
      payload: { name: 'x', kind: 'admin' },
    });
    expect(wrong.statusCode).toBe(400);
    const listed = await app.inject({ method: 'GET', url: `/api/v1/site/${coast}/keys`, headers: auth });
    const kinds = listed.json().data.map((key: { kind: string }) => key.kind);
    expect(kinds).toEqual(expect.arrayContaining(['publishable', 'secret']));
  });

  it('get public answers with a strong ETag and surrogate keys on every cached read', async () => {
    const cases: [string, string][] = [
      ['/posts', listTags],
      ['/posts?tag=storm', listTags],
      ['/tags', listTags],
      ['/all', listTags],
      ['/feed.xml', listTags],
      ['/sitemap.xml', listTags],
      ['/site', siteTag],
      ['/article/pk-story', `${siteTag} article:${story.id}`],
    ];
    for (const [url, tags] of cases) {
      const response = await get(url, publishable);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe(shared);
      expect(response.headers.etag, url).toMatch(/^"/);
      expect(response.headers['surrogate-key'], url).toBe(tags);
      expect(response.headers.xkey, url).toBe(tags);
      expect(response.headers['cache-tag'], url).toBe(tags.replaceAll(' ', ','));
    }
  });

  it('leave secret keys private, with no surrogate keys, from the same cached answer', async () => {
    const first = await get('/article/pk-story', publishable);
    const again = await get('/article/pk-story', secret);
    expect(again.headers['cache-control']).toMatch(/^private, /);
    expect(again.headers['surrogate-key']).toBeUndefined();
    expect(again.headers.xkey).toBeUndefined();
    expect(again.headers['cache-tag']).toBeUndefined();
    // Same bytes, same validator: nothing secret varies a publishable key's answer.
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.body).toBe(first.body);
    const network = await get(`/article/pk-story?site=pk-coast`, testApiKey);
    expect(network.headers['cache-control']).toMatch(/^private, /);
  });

  it('keep errors uncacheable and answer 304 with the public headers', async () => {
    const missing = await get('/article/no-such-story', publishable);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    const { etag } = (await get('/posts', publishable)).headers;
    const revalidated = await get('/posts', publishable, { 'if-none-match': String(etag) });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers['cache-control']).toBe(shared);
  });

  it('cannot read the change feed, nor another site', async () => {
    const feed = await get('/changes?initial=true', publishable);
    expect(feed.statusCode).toBe(403);
    expect(feed.json()).toMatchObject({ code: 'SECRET_KEY_REQUIRED' });
    expect((await get('/changes?initial=true', secret)).statusCode).toBe(200);
    const other = await insertSite(db, 'pk-other');
    expect(other).toBeTruthy();
    expect((await get('/posts?site=pk-other', publishable)).statusCode).toBe(403);
    const viaQuery = await app.inject({
      method: 'GET',
      url: `/api/v1/client/changes?api_key=${publishable}`,
    });
    expect(viaQuery.statusCode).toBe(403);
  });

  it("answer the site's browser origins (CORS) as secret keys do", async () => {
    const response = await get('/posts', publishable, { origin: 'https://coast.example' });
    expect(response.headers['access-control-allow-origin']).toBe('https://coast.example');
    expect(response.headers.vary).toContain('origin');
  });
});
