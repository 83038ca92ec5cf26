import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { validate } from '@hyperjump/json-schema/openapi-3-0';
import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite, issueSiteKey } from '../support/content-fixtures';
import { createTestApp } from '../support/test-app';

// Every client route's answers, with and without `fields=`, validated against the OpenAPI document the API
// serves, by an independent validator (@hyperjump/json-schema's OpenAPI 3.0 dialect, not the ajv the API
// itself uses): what a validating generated client would accept.
const { app, db, close } = await createTestApp();
const scratch = await mkdtemp(join(tmpdir(), 'response-contract-'));
afterAll(async () => {
  await close();
  await rm(scratch, { recursive: true, force: true });
});

const site = await insertSite(db, 'metro');
await db
  .updateTable('sites')
  .set({ domain: 'metro.example.com', article_url_template: 'https://{domain}/news/{slug}' })
  .where('id', '=', site)
  .execute();
const key = (await issueSiteKey(db, site)).key;
await insertArticle(db, {
  slug: 'harbour-bridge',
  title: 'Harbour bridge reopens',
  siteIds: [site],
  tags: ['Traffic', 'City'],
  category: 'News',
  section: 'Local',
  body: '<p>Traffic is back on the bridge.</p>',
  excerpt: 'Traffic is back on the bridge.',
});
await insertArticle(db, { slug: 'imported-story', siteIds: [site], aggregated: true, tags: ['Wire'] });
await insertArticle(db, {
  slug: 'older-story',
  siteIds: [site],
  publishedAt: new Date(Date.now() - 86_400_000),
});

const documentResponse = await app.inject({ method: 'GET', url: '/docs/json' });
// The file extension tells the validator the document is an OpenAPI document.
const documentFile = join(scratch, 'newsroom.openapi.json');
await writeFile(documentFile, documentResponse.body);
const documentUrl = pathToFileURL(documentFile).href;

const pointerPart = (text: string) =>
  text.replaceAll('~', '~0').replaceAll('/', '~1').replaceAll('{', '%7B').replaceAll('}', '%7D');

/** The answer to `url`, checked against the 200 JSON schema of `route`'s GET operation in the served document. */
async function expectValid(route: string, url: string) {
  const response = await app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  const body = response.json();
  const schema = `${documentUrl}#/paths/${pointerPart(route)}/get/responses/200/content/application~1json/schema`;
  const output = await validate(schema, body, 'DETAILED');
  expect(
    output.valid,
    `${url}: ${JSON.stringify((output as { errors?: unknown[] }).errors?.slice(0, 5), null, 1)}`,
  ).toBe(true);
  return body;
}

describe('client answers validated against the served OpenAPI document', () => {
  it('lists, with and without fields', async () => {
    for (const route of ['posts', 'partner-articles']) {
      const path = `/api/v1/client/${route}`;
      await expectValid(path, path);
      await expectValid(path, `${path}?fields=title,slug`);
      await expectValid(path, `${path}?fields=id&tag=wire`);
      await expectValid(path, `${path}?q=traffic&fields=title,excerpt,publishedAt`);
      const first = await expectValid(path, `${path}?limit=1`);
      const { nextCursor } = first.meta.pagination;
      if (nextCursor) await expectValid(path, `${path}?limit=1&after=${encodeURIComponent(nextCursor)}`);
    }
  });

  it('one article by slug', async () => {
    const body = await expectValid('/api/v1/client/article/{slug}', '/api/v1/client/article/harbour-bridge');
    expect(body.slug).toBe('harbour-bridge');
    const path = '/api/v1/client/article/{slug}';
    await expectValid(path, '/api/v1/client/article/harbour-bridge?fields=slug,url');
    const structured = await expectValid(
      path,
      '/api/v1/client/article/harbour-bridge?include=structuredData',
    );
    expect(structured.structuredData['@type']).toBe('NewsArticle');
  });

  it('structured data on lists, and the site', async () => {
    await expectValid('/api/v1/client/posts', '/api/v1/client/posts?include=structuredData');
    await expectValid('/api/v1/client/all', '/api/v1/client/all?fields=slug,structuredData');
    const site = await expectValid('/api/v1/client/site', '/api/v1/client/site');
    expect(site.slug).toBe('metro');
  });

  it('everything at once, wrapped and as an array, with and without fields', async () => {
    const path = '/api/v1/client/all';
    await expectValid(path, path);
    await expectValid(path, `${path}?format=array`);
    await expectValid(path, `${path}?fields=slug,updatedAt`);
    await expectValid(path, `${path}?format=array&fields=slug`);
  });

  it('taxonomies', async () => {
    for (const taxonomy of ['tags', 'categories', 'sections']) {
      const path = `/api/v1/client/${taxonomy}`;
      await expectValid(path, path);
    }
  });

  it('the change feed, from its start and from a cursor', async () => {
    const path = '/api/v1/client/changes';
    const start = await expectValid(path, path);
    await insertArticle(db, { slug: 'fresh-story', siteIds: [site] });
    const cursor = start.meta?.next ?? start.next ?? start.meta?.cursor;
    expect(typeof cursor, JSON.stringify(start)).toBe('string');
    await expectValid(path, `${path}?since=${encodeURIComponent(cursor)}`);
    const initial = await expectValid(path, `${path}?initial=true&limit=1`);
    const next = initial.meta?.next;
    expect(typeof next, JSON.stringify(initial)).toBe('string');
    await expectValid(path, `${path}?since=${encodeURIComponent(next)}&limit=1`);
  });

  it('JSON Feed', async () => {
    const path = '/api/v1/client/feed.json';
    const response = await app.inject({ method: 'GET', url: path, headers: { 'x-api-key': key } });
    const operation = documentResponse.json().paths[path].get;
    const [mediaType] = Object.keys(operation.responses['200'].content);
    expect(response.headers['content-type']).toContain(mediaType);
    const schema = `${documentUrl}#/paths/${pointerPart(path)}/get/responses/200/content/${pointerPart(mediaType as string)}/schema`;
    const output = await validate(schema, response.json(), 'DETAILED');
    expect(output.valid, JSON.stringify((output as { errors?: unknown[] }).errors?.slice(0, 5))).toBe(true);
  });
});
