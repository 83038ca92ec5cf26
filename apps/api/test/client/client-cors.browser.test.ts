import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchLoopbackChromium } from '../support/chromium';
import { insertArticle, insertSite, issueSiteKey } from '../support/content-fixtures';
import { createTestApp, testApiKey } from '../support/test-app';

// A real browser's CORS check: a child site's page on one loopback origin reads the API on another port with
// fetch(). The site's allowed origin reads it (preflight included: x-api-key is not a simple header); a page
// on another origin is blocked by the browser, and so is the network key from the allowed origin.

const { app, db, close } = await createTestApp();
let api = '';
let chromium: Awaited<ReturnType<typeof launchLoopbackChromium>> | undefined;
const pages: Server[] = [];
let allowedOrigin = '';
let otherOrigin = '';
let siteKey = '';

/** A child site's page server: one empty HTML page on its own port (its own origin). */
async function pageServer(): Promise<string> {
  const server = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>child site</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pages.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  api = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  allowedOrigin = await pageServer();
  otherOrigin = await pageServer();
  const site = await insertSite(db, 'metro');
  await db
    .updateTable('sites')
    .set({ allowed_origins: [allowedOrigin] })
    .where('id', '=', site)
    .execute();
  siteKey = (await issueSiteKey(db, site)).key;
  await insertArticle(db, { slug: 'browser-story', siteIds: [site] });
  chromium = await launchLoopbackChromium();
}, 60_000);

afterAll(async () => {
  await chromium?.close();
  for (const server of pages) server.close();
  await close();
});

/** fetch() from a page on `origin`: the status and the ETag the page could read, or the browser's error. */
async function fetchFrom(origin: string, url: string, key: string) {
  const page = await (chromium?.browser ?? expect.unreachable()).newPage();
  try {
    await page.goto(origin);
    // A string, run in the page (this file is not compiled with the DOM library).
    return (await page.evaluate(`fetch(${JSON.stringify(url)}, { headers: { 'x-api-key': ${JSON.stringify(key)} } })
      .then(async (r) => ({ status: r.status, etag: r.headers.get('etag'), slug: (await r.json()).slug }))
      .catch((e) => ({ error: String(e) }))`)) as {
      status?: number;
      etag?: string;
      slug?: string;
      error?: string;
    };
  } finally {
    await page.close();
  }
}

describe('CORS in Chromium', () => {
  it('lets the allowed origin read with its site key, and read the ETag', { timeout: 60_000 }, async () => {
    const result = await fetchFrom(allowedOrigin, `${api}/api/v1/client/article/browser-story`, siteKey);
    expect(result).toMatchObject({ status: 200, slug: 'browser-story' });
    expect(result.etag).toMatch(/^"/);
  });

  it('is blocked by the browser from another origin', { timeout: 60_000 }, async () => {
    const result = await fetchFrom(otherOrigin, `${api}/api/v1/client/article/browser-story`, siteKey);
    expect(result.error).toMatch(/Failed to fetch/);
  });

  it('is blocked by the browser with the network key, even from the allowed origin', {
    timeout: 60_000,
  }, async () => {
    const result = await fetchFrom(allowedOrigin, `${api}/api/v1/client/article/browser-story`, testApiKey);
    expect(result.error).toMatch(/Failed to fetch/);
  });
});
