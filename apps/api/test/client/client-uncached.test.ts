import { createRedisConnection } from '@newsroom/queue';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { insertArticle, insertSite, issueSiteKey, minutesAgo } from '../support/content-fixtures';
import { createTestApp, testApiKey } from '../support/test-app';

// The same app twice on one database: with the response cache (the default) and with CLIENT_CACHE=off.
// Whichever path answers (cache fill, cache hit, uncached read, Postgres's custom or generic plans),
// clients must receive the same bytes and the same ETag.
const { app: cachedApp, db, config, close } = await createTestApp();
const redis = createRedisConnection(config.redis.url, 'producer');
const uncachedApp = await buildApp({
  config: { ...config, client: { ...config.client, responseCache: false } },
  db,
  redis,
});
afterAll(async () => {
  await uncachedApp.close();
  redis.disconnect();
  await close();
});

const north = await insertSite(db, 'north');
const south = await insertSite(db, 'south');
const northKey = (await issueSiteKey(db, north)).key;
for (let i = 0; i < 30; i++) {
  await insertArticle(db, {
    slug: `story-${i}`,
    siteIds: i % 3 === 0 ? [north, south] : [i % 2 ? north : south],
    publishedAt: minutesAgo(i + 1),
    aggregated: i % 4 === 0,
    tags: i % 2 ? ['odd', 'quote"and\\backslash'] : [],
    category: i % 5 ? 'news' : null,
  });
}
// A body that needs JSON escaping, and a timestamp with microseconds (JSON keeps milliseconds, truncated).
await db
  .updateTable('articles')
  .set({ body: 'Line one\nline "two"\t\u0001 \u00e9\u2028 \ud83d\udcf0 \\ end' })
  .where('slug', '=', 'story-1')
  .execute();
await db
  .updateTable('articles')
  .set({ published_at: new Date('2026-11-20T11:58:30.123Z') })
  .where('slug', '=', 'story-3')
  .execute();
// Sub-millisecond precision cannot be written through a JS Date.
await sql`update articles set updated_at = timestamptz '2026-11-20 12:00:00.987654+00'
  where slug = 'story-3'`.execute(db);

const urls = [
  '/posts',
  '/posts?limit=7&page=2',
  '/posts?limit=7&page=5',
  '/posts?tag=odd',
  '/posts?category=news&limit=3',
  '/partner-articles',
  '/partner-articles?site=north',
  '/article/story-1',
  '/article/story-3',
  '/article/story-3?site=north',
];

const get = (target: typeof cachedApp, url: string, key: string) =>
  target.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key } });

describe('uncached and cached reads', () => {
  it('send byte-identical bodies and ETags, also after Postgres settles on generic plans', async () => {
    for (const key of [testApiKey, northKey]) {
      for (const url of urls) {
        const reference = await get(cachedApp, url, key);
        expect(reference.statusCode, url).toBe(200);
        // Past the 5 executions after which Postgres may switch a prepared statement to a generic plan.
        for (let round = 0; round < 7; round++) {
          for (const target of [cachedApp, uncachedApp]) {
            const response = await get(target, url, key);
            expect(response.rawPayload.equals(reference.rawPayload), `${url} round ${round}`).toBe(true);
            expect(response.headers.etag).toBe(reference.headers.etag);
          }
        }
      }
    }
  });

  it('keep the JSON formats: escaped strings, ISO timestamps with milliseconds, nulls, arrays', async () => {
    const escaped = await get(uncachedApp, '/article/story-1', testApiKey);
    expect(escaped.json().body).toBe('Line one\nline "two"\t\u0001 \u00e9\u2028 \ud83d\udcf0 \\ end');
    expect(escaped.body).toContain(String.raw`"Line one\nline \"two\"\t\u0001 é`);
    const precise = (await get(uncachedApp, '/article/story-3', testApiKey)).json();
    expect(precise.publishedAt).toBe('2026-11-20T11:58:30.123Z');
    expect(precise.updatedAt).toBe('2026-11-20T12:00:00.987Z');
    expect(precise).toMatchObject({
      category: 'news',
      tags: ['odd', 'quote"and\\backslash'],
      section: null,
      source: null,
      hostSites: ['north', 'south'],
    });
  });
});
