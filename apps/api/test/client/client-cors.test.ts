import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite, issueSiteKey } from '../support/content-fixtures';
import { createDashboardUsers } from '../support/dashboard-users';
import { createTestApp, testApiKey } from '../support/test-app';

// CORS on the client routes only: a site key answers its site's allowed origins, the network key none, the
// preflight answers origins some site allows; dashboard and admin routes never answer CORS.
const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken } = await createDashboardUsers(testApp);

const metroOrigin = 'https://www.metro.example.com';
const coastOrigin = 'https://coast.example.org';
const metro = await insertSite(db, 'metro');
const coast = await insertSite(db, 'coast');
const metroKey = (await issueSiteKey(db, metro)).key;
const coastKey = (await issueSiteKey(db, coast)).key;
await insertArticle(db, { slug: 'cors-story', siteIds: [metro, coast] });

const admin = (method: 'PUT' | 'POST' | 'GET', url: string, payload?: object) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${adminToken}` },
    ...(payload && { payload }),
  });
const read = (url: string, key: string, origin?: string, extra: Record<string, string> = {}) =>
  app.inject({
    method: 'GET',
    url: `/api/v1/client${url}`,
    headers: { 'x-api-key': key, ...(origin && { origin }), ...extra },
  });
const preflight = (url: string, origin: string, method = 'GET') =>
  app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'x-api-key',
    },
  });

describe('allowed origins of a site', () => {
  it('are set through the site API, normalised, and refused when not origins', async () => {
    const set = await admin('PUT', `/api/v1/site/${metro}`, {
      allowedOrigins: [metroOrigin, 'https://WWW.metro.example.com/', 'http://127.0.0.1:5173'],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().allowedOrigins).toEqual([metroOrigin, 'http://127.0.0.1:5173']);
    for (const bad of [
      'https://metro.example.com/news',
      '*',
      'ftp://metro.example.com',
      'metro.example.com',
    ]) {
      const refused = await admin('PUT', `/api/v1/site/${metro}`, { allowedOrigins: [bad] });
      expect(refused.statusCode, bad).toBe(400);
      expect(['VALIDATION_ERROR', 'INVALID_ALLOWED_ORIGIN']).toContain(refused.json().code);
    }
    expect((await admin('GET', `/api/v1/site/${metro}`)).json().allowedOrigins).toHaveLength(2);
    const coastSet = await admin('PUT', `/api/v1/site/${coast}`, { allowedOrigins: [coastOrigin] });
    expect(coastSet.statusCode).toBe(200);
  });
});

describe('CORS on the client routes', () => {
  it('answers an allowed origin with its own origin, exposed ETag, no credentials and Vary: Origin', async () => {
    for (const url of ['/posts', '/article/cors-story', '/tags', '/all', '/changes']) {
      const response = await read(url, metroKey, metroOrigin);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['access-control-allow-origin'], url).toBe(metroOrigin);
      expect(response.headers['access-control-expose-headers'], url).toContain('ETag');
      expect(response.headers['access-control-allow-credentials'], url).toBeUndefined();
      expect(String(response.headers.vary), url).toContain('origin');
    }
  });

  it('keeps answering the allowed origin on cached reads, 304s and 404s', async () => {
    const first = await read('/posts', metroKey, metroOrigin);
    const revalidated = await read('/posts', metroKey, metroOrigin, {
      'if-none-match': String(first.headers.etag),
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers['access-control-allow-origin']).toBe(metroOrigin);
    const missing = await read('/article/no-such-story', metroKey, metroOrigin);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['access-control-allow-origin']).toBe(metroOrigin);
  });

  it('answers no CORS for another origin, another site’s origin, the network key, or no Origin', async () => {
    const cases: Array<[string, string | undefined]> = [
      [metroKey, 'https://evil.example.net'],
      [metroKey, coastOrigin],
      [coastKey, metroOrigin],
      [testApiKey, metroOrigin],
      [metroKey, undefined],
    ];
    for (const [key, origin] of cases) {
      // Twice: the second read is served from the response cache, which must not carry headers over.
      for (let round = 0; round < 2; round++) {
        const response = await read('/posts', key, origin);
        expect(response.statusCode).toBe(200);
        expect(response.headers['access-control-allow-origin'], `${origin} round ${round}`).toBeUndefined();
      }
    }
    // The same cached body still answers the allowed origin right after.
    expect((await read('/posts', metroKey, metroOrigin)).headers['access-control-allow-origin']).toBe(
      metroOrigin,
    );
  });

  it('refuses a wrong key without CORS headers', async () => {
    const response = await read('/posts', 'nsk_wrongwrongwrongwrongwrong', metroOrigin);
    expect(response.statusCode).toBe(401);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers the preflight of an allowed origin with methods, headers and a max-age', async () => {
    for (const url of [
      '/api/v1/client/posts',
      '/api/v1/client/article/cors-story',
      '/api/v1/client/feed.xml',
    ]) {
      const response = await preflight(url, coastOrigin);
      expect(response.statusCode, url).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe(coastOrigin);
      expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD');
      expect(String(response.headers['access-control-allow-headers'])).toContain('x-api-key');
      expect(String(response.headers['access-control-allow-headers'])).toContain('if-none-match');
      expect(Number(response.headers['access-control-max-age'])).toBeGreaterThan(0);
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      expect(String(response.headers.vary)).toContain('origin');
    }
  });

  it('refuses the preflight of an origin no site allows (403, no CORS headers)', async () => {
    const response = await preflight('/api/v1/client/posts', 'https://evil.example.net');
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('CORS_ORIGIN_NOT_ALLOWED');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sees an origin removed from a site as soon as the change is heard (NOTIFY)', async () => {
    expect((await admin('PUT', `/api/v1/site/${coast}`, { allowedOrigins: [] })).statusCode).toBe(200);
    await expect
      .poll(async () => (await preflight('/api/v1/client/posts', coastOrigin)).statusCode)
      .toBe(403);
    await expect
      .poll(async () => (await read('/posts', coastKey, coastOrigin)).headers['access-control-allow-origin'])
      .toBeUndefined();
  });
});

describe('dashboard and admin routes', () => {
  it('never answer CORS, even to an origin a site allows', async () => {
    for (const url of [
      '/api/v1/article',
      '/api/v1/site',
      '/api/v1/auth/login',
      '/admin/queues',
      '/docs/json',
    ]) {
      const options = await preflight(url, metroOrigin, 'POST');
      expect(options.headers['access-control-allow-origin'], url).toBeUndefined();
      expect(options.headers['access-control-allow-methods'], url).toBeUndefined();
      const get = await app.inject({
        method: 'GET',
        url,
        headers: { origin: metroOrigin, authorization: `Bearer ${adminToken}` },
      });
      expect(get.headers['access-control-allow-origin'], url).toBeUndefined();
    }
  });
});

describe('the preflight route and other methods', () => {
  it('adds no path: an unknown client path is still 404, a wrong method on a real one 405', async () => {
    const unknown = await app.inject({
      method: 'GET',
      url: '/api/v1/client/no-such-route',
      headers: { 'x-api-key': metroKey },
    });
    expect(unknown.statusCode).toBe(404);
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/v1/client/posts',
      headers: { 'x-api-key': metroKey },
    });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('GET, HEAD');
  });
});
