import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite, issueSiteKey, minutesAgo } from '../support/content-fixtures';
import { createTestApp, testApiKey } from '../support/test-app';

// A ready NewsArticle (JSON-LD) on request, validated by an independent validator (ajv) against a checked-in
// JSON Schema of Google's required and recommended Article properties (test/fixtures/structured-data/).
const { app, db, close } = await createTestApp();
afterAll(close);

const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/structured-data/google-article.schema.json'), 'utf8'),
);
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(schema);
const problems = (data: unknown) => (validate(data) ? [] : validate.errors);

const metro = await insertSite(db, 'metro');
await db
  .updateTable('sites')
  .set({
    name: 'Metro Daily',
    domain: 'metro.example.com',
    language: 'pt-BR',
    article_url_template: 'https://{domain}/news/{slug}',
  })
  .where('id', '=', metro)
  .execute();
const metroKey = (await issueSiteKey(db, metro)).key;
const longTitle = `${'A very long headline about the harbour bridge '.repeat(4)}end`;
const bridge = await insertArticle(db, {
  slug: 'harbour-bridge',
  title: longTitle,
  siteIds: [metro],
  publishedAt: minutesAgo(1),
  tags: ['Traffic', 'City'],
  section: 'Local',
  excerpt: 'Traffic is back on the bridge.',
});
await db
  .updateTable('articles')
  .set({ image: 'https://cdn.example.com/bridge.jpg', thumbnail: 'https://cdn.example.com/bridge-small.jpg' })
  .where('id', '=', bridge.id)
  .execute();
await insertArticle(db, {
  slug: 'wire-story',
  siteIds: [metro],
  publishedAt: minutesAgo(2),
  aggregated: true,
});

const get = (url: string, key = metroKey) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key } });

describe('structuredData (NewsArticle JSON-LD)', () => {
  it('is built from our fields and validates against the Google Article schema', async () => {
    const response = await get('/article/harbour-bridge?include=structuredData');
    expect(response.statusCode, response.body).toBe(200);
    const article = response.json();
    expect(article.title).toBe(longTitle);
    const data = article.structuredData;
    expect(problems(data)).toEqual([]);
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'NewsArticle',
      url: 'https://metro.example.com/news/harbour-bridge',
      mainEntityOfPage: 'https://metro.example.com/news/harbour-bridge',
      image: ['https://cdn.example.com/bridge.jpg', 'https://cdn.example.com/bridge-small.jpg'],
      inLanguage: 'pt-BR',
      publisher: { '@type': 'Organization', name: 'Metro Daily', url: 'https://metro.example.com/' },
      author: [{ '@type': 'Organization', name: 'Metro Daily' }],
      description: 'Traffic is back on the bridge.',
      articleSection: 'Local',
      keywords: ['Traffic', 'City'],
      datePublished: article.publishedAt,
      dateModified: article.updatedAt,
    });
    expect(data.headline.length).toBeLessThanOrEqual(110);
    expect(data.headline.endsWith('…')).toBe(true);
  });

  it('names the feed publisher as author of an imported article, and the original as isBasedOn', async () => {
    const data = (await get('/article/wire-story?include=structuredData')).json().structuredData;
    expect(problems(data)).toEqual([]);
    expect(data.author).toEqual([{ '@type': 'Organization', name: 'Daily Planet' }]);
    expect(data.isBasedOn).toBe('https://planet.example/wire-story');
  });

  it('comes on lists and /all with include=, alone with fields=, and never unasked', async () => {
    const page = (await get('/posts?include=structuredData')).json();
    expect(page.data).toHaveLength(2);
    for (const article of page.data) expect(problems(article.structuredData)).toEqual([]);
    const all = (await get('/all?include=structuredData')).json();
    expect(all.data.map((a: { structuredData: object }) => problems(a.structuredData))).toEqual([[], []]);
    const sparse = (await get('/posts?fields=slug,structuredData')).json();
    expect(Object.keys(sparse.data[0])).toEqual(['slug', 'structuredData']);
    const plain = (await get('/article/harbour-bridge')).json();
    expect(plain).not.toHaveProperty('structuredData');
    expect((await get('/posts')).json().data[0]).not.toHaveProperty('structuredData');
  });

  it('needs one site: the network key names it with ?site=, else 400 SITE_REQUIRED', async () => {
    const refused = await get('/article/harbour-bridge?include=structuredData', testApiKey);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('SITE_REQUIRED');
    expect((await get('/posts?fields=structuredData', testApiKey)).statusCode).toBe(400);
    const named = await get('/article/harbour-bridge?include=structuredData&site=metro', testApiKey);
    expect(problems(named.json().structuredData)).toEqual([]);
    expect((await get('/posts?include=other')).statusCode).toBe(400);
  });

  it('the schema does refuse a broken object (the validation is real)', () => {
    expect(problems({ '@context': 'https://schema.org', '@type': 'NewsArticle', headline: 'x' })).not.toEqual(
      [],
    );
  });
});
