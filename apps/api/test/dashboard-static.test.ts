import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, testConfig } from './support/test-app';

// A dashboard build as Vite leaves it: index.html, hashed assets, precompressed copies beside them.
const dist = mkdtempSync(join(tmpdir(), 'newsroom-dashboard-dist-'));
const indexHtml =
  '<!doctype html><html><head><script type="module" src="/assets/index-Bx1a2b3c.js"></script></head><body><div id="app"></div></body></html>';
const script = `console.log(${JSON.stringify('dashboard '.repeat(200))});`;
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), indexHtml);
writeFileSync(join(dist, 'index.html.br'), brotliCompressSync(indexHtml));
writeFileSync(join(dist, 'assets', 'index-Bx1a2b3c.js'), script);
writeFileSync(join(dist, 'assets', 'index-Bx1a2b3c.js.br'), brotliCompressSync(script));
writeFileSync(join(dist, 'assets', 'index-Bx1a2b3c.js.gz'), gzipSync(script));
writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

const built = await createTestApp({ env: { DASHBOARD_DIST: dist } });
const unbuilt = await createTestApp({ env: { DASHBOARD_DIST: join(dist, 'missing') } });
afterAll(async () => {
  await built.close();
  await unbuilt.close();
  rmSync(dist, { recursive: true, force: true });
});

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const get = (url: string, headers: Record<string, string> = {}, app = built.app) =>
  app.inject({ method: 'GET', url, headers });

describe('the built dashboard at the site root', () => {
  it('serves index.html at / with no-cache', async () => {
    const response = await get('/', html);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe(indexHtml);
  });

  it.each([
    '/login',
    '/publishers',
    '/publishers/create',
    '/publishers/0b7c4a52-6f0e-4d7e-9c39-3c1d2a1e0a01',
    '/publisher/feed',
    '/publishers/reports?from=2026-01',
  ])('answers a deep link %s with index.html (history fallback)', async (url) => {
    const response = await get(url, html);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe(indexHtml);
  });

  it('serves hashed assets for a year, immutable, brotli or gzip as the browser accepts', async () => {
    const br = await get('/assets/index-Bx1a2b3c.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await get('/assets/index-Bx1a2b3c.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/index-Bx1a2b3c.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('serves index.html compressed too', async () => {
    const response = await get('/publishers', { ...html, 'accept-encoding': 'br' });
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(indexHtml);
  });

  it('serves other root files, revalidated', async () => {
    const response = await get('/favicon.svg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it.each([
    '/api/v1/nope',
    '/api',
    '/docs/nope',
    '/health/x',
    '/ready/x',
    '/metrics',
    '/metrics/x',
    '/admin/queues-x/../queues/nope',
  ])('keeps the JSON 404 of the server path %s, even for a browser', async (url) => {
    const response = await get(url, html);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answers a missing asset and a non-browser request with the JSON 404', async () => {
    const asset = await get('/assets/index-gone.js', { accept: '*/*' });
    expect(asset.statusCode).toBe(404);
    expect(asset.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    const api = await get('/publishers', { accept: 'application/json' });
    expect(api.statusCode).toBe(404);
  });

  it('never serves a file outside the build folder', async () => {
    for (const url of ['/../package.json', '/assets/../../package.json', '/%2e%2e/package.json']) {
      const response = await get(url, html);
      expect(response.body).not.toContain('"name"');
      expect(response.body).not.toContain('dependencies');
    }
  });

  it.each([
    ['a browser', html],
    ['a client', { 'x-api-key': 'any' }],
  ])(
    'answers an over-long path parameter with the 414 of the error catalogue, for %s',
    async (_who, headers) => {
      // The router falls back to the dashboard's catch-all when a parameter is too long for the API route:
      // the answer must stay the API's own.
      const response = await get(`/api/v1/client/article/${'x'.repeat(101)}`, headers);
      expect(response.statusCode).toBe(414);
      expect(response.json()).toMatchObject({ statusCode: 414, code: 'PATH_PARAMETER_TOO_LONG' });
    },
  );

  it('leaves the API and the docs working', async () => {
    expect((await get('/health')).statusCode).toBe(200);
    expect((await get('/docs/json')).statusCode).toBe(200);
  });
});

describe('the test app', () => {
  it("serves no dashboard unless the test hands one in, whatever the checkout's apps/dashboard/dist holds", () => {
    const { dashboardDist } = testConfig();
    expect(dashboardDist).not.toBe(resolve(import.meta.dirname, '../../dashboard/dist'));
    expect(existsSync(dashboardDist)).toBe(false);
  });
});

describe('without a dashboard build', () => {
  it('points GET / to the API docs, as JSON or as a page', async () => {
    const json = await get('/', {}, unbuilt.app);
    expect(json.statusCode).toBe(200);
    expect(json.json()).toMatchObject({ docs: '/docs' });
    const page = await get('/', html, unbuilt.app);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<a href="/docs">');
  });

  it('answers other paths with the JSON 404', async () => {
    const response = await get('/publishers', html, unbuilt.app);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
  });
});
