import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { acceptsGzip, minCompressedBytes } from '../../src/delivery/content-encoding';
import { insertArticle, insertSite, issueSiteKey } from '../support/content-fixtures';
import { createTestApp } from '../support/test-app';

// Cached client responses in two representations (content-encoding.ts): identity, and gzip for requests that
// accept it, each with its own ETag; streams (/all) are never compressed.

const { app, db, close } = await createTestApp();
afterAll(close);

const metro = await insertSite(db, 'metro');
await db
  .updateTable('sites')
  .set({ domain: 'metro.example.com', article_url_template: 'https://{domain}/news/{slug}' })
  .where('id', '=', metro)
  .execute();
const key = (await issueSiteKey(db, metro)).key;
const paragraph = '<p>The harbour bridge reopened this morning after three weeks of repairs.</p>';
for (let i = 0; i < 6; i++) {
  await insertArticle(db, {
    slug: `story-${i}`,
    siteIds: [metro],
    body: paragraph.repeat(20),
    tags: ['Traffic', `Tag ${i}`],
    category: 'News',
  });
}
await insertArticle(db, { slug: 'tiny', siteIds: [metro], body: 'Short.' });

/** What Node's fetch (undici) sends over https (over http it sends `gzip, deflate`). */
const undici = 'br, gzip, deflate';
const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key, ...headers } });

/** Both representations of one URL, checked to carry the same content. */
async function bothOf(url: string) {
  const plain = await get(url);
  const gzipped = await get(url, { 'accept-encoding': undici });
  expect(plain.statusCode).toBe(200);
  expect(gzipped.statusCode).toBe(200);
  return { plain, gzipped };
}

describe('gzip representations of cached responses', () => {
  for (const url of ['/posts', '/article/story-1', '/tags', '/feed.xml', '/feed.json', '/sitemap-news.xml']) {
    it(`${url}: gzip when accepted (same bytes once decompressed, own ETag, Vary), identity otherwise`, async () => {
      const { plain, gzipped } = await bothOf(url);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('x-api-key, accept-encoding, origin');
      expect(gzipped.headers.vary).toBe('x-api-key, accept-encoding, origin');
      if (plain.rawPayload.length < minCompressedBytes) {
        // Small bodies go as they are (the threshold), whatever the request accepts.
        expect(gzipped.headers['content-encoding']).toBeUndefined();
        expect(gzipped.headers.etag).toBe(plain.headers.etag);
        return;
      }
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(gzipped.headers['content-type']).toBe(plain.headers['content-type']);
      expect(gunzipSync(gzipped.rawPayload).equals(plain.rawPayload)).toBe(true);
      expect(gzipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(Number(gzipped.headers['content-length'])).toBe(gzipped.rawPayload.length);
      expect(gzipped.headers.etag).toBe(`${(plain.headers.etag as string).slice(0, -1)}-gzip"`);
      expect(gzipped.headers['cache-control']).toBe(plain.headers['cache-control']);
    });
  }

  it('leaves a body under the threshold uncompressed', async () => {
    const { plain, gzipped } = await bothOf('/article/tiny');
    expect(plain.rawPayload.length).toBeLessThan(minCompressedBytes);
    expect(gzipped.headers['content-encoding']).toBeUndefined();
    expect(gzipped.rawPayload.equals(plain.rawPayload)).toBe(true);
  });

  it('answers If-None-Match per representation: 304 for the one it would send, 200 for the other', async () => {
    const { plain, gzipped } = await bothOf('/posts');
    const gzipTag = gzipped.headers.etag as string;
    const plainTag = plain.headers.etag as string;
    const revalidate = (etag: string, acceptEncoding?: string) =>
      get('/posts', {
        'if-none-match': etag,
        ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
      });

    const sameGzip = await revalidate(gzipTag, undici);
    expect(sameGzip.statusCode).toBe(304);
    expect(sameGzip.headers.etag).toBe(gzipTag);
    expect(sameGzip.headers.vary).toBe('x-api-key, accept-encoding, origin');
    expect(sameGzip.rawPayload.length).toBe(0);
    expect((await revalidate(plainTag)).statusCode).toBe(304);
    expect((await revalidate(`"other", W/${gzipTag}`, undici)).statusCode).toBe(304);

    // The other representation's ETag does not match: the client gets the one it asked for, whole.
    const crossed = await revalidate(plainTag, undici);
    expect(crossed.statusCode).toBe(200);
    expect(crossed.headers['content-encoding']).toBe('gzip');
    const plainAgain = await revalidate(gzipTag);
    expect(plainAgain.statusCode).toBe(200);
    expect(plainAgain.headers['content-encoding']).toBeUndefined();
  });

  it('changes both ETags when the content changes', async () => {
    const before = await bothOf('/posts');
    await insertArticle(db, { slug: 'breaking', siteIds: [metro], body: paragraph.repeat(5) });
    await expect
      .poll(async () => (await get('/posts', { 'accept-encoding': 'gzip' })).headers.etag, { timeout: 1_000 })
      .not.toBe(before.gzipped.headers.etag);
    const after = await bothOf('/posts');
    expect(after.plain.headers.etag).not.toBe(before.plain.headers.etag);
    expect(gunzipSync(after.gzipped.rawPayload).equals(after.plain.rawPayload)).toBe(true);
  });

  it('sends /all uncompressed whatever the request accepts', async () => {
    const all = await get('/all', { 'accept-encoding': undici });
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-encoding']).toBeUndefined();
    expect(all.json().data.length).toBeGreaterThan(5);
  });

  it('keeps errors uncompressed and without the encoding Vary', async () => {
    const missing = await get('/article/no-such-story', { 'accept-encoding': undici });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
  });
});

describe('through a real HTTP client that decompresses (Node fetch, undici)', () => {
  it('reads the same JSON as an identity request, and revalidates with the ETag it was given', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const plain = (await get('/posts')).json();
    const response = await fetch(`${address}/api/v1/client/posts`, { headers: { 'x-api-key': key } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(await response.json()).toEqual(plain);
    const etag = response.headers.get('etag') as string;
    expect(etag).toMatch(/-gzip"$/);
    const again = await fetch(`${address}/api/v1/client/posts`, {
      headers: { 'x-api-key': key, 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    const article = await fetch(`${address}/api/v1/client/article/story-2`, {
      headers: { 'x-api-key': key },
    });
    expect(article.headers.get('content-encoding')).toBe('gzip');
    expect(await article.json()).toEqual((await get('/article/story-2')).json());
  });
});

describe('Accept-Encoding', () => {
  it.each([
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', true],
    ['GZIP', true],
    ['x-gzip', true],
    ['*', true],
    ['gzip;q=0', false],
    ['*;q=0', false],
    ['gzip;q=0, *', false],
    ['deflate, br', false],
    ['identity', false],
    ['', false],
  ])('%j accepts gzip: %s', (header, accepted) => {
    expect(acceptsGzip(header)).toBe(accepted);
  });
});
