import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite } from '../support/content-fixtures';
import { createTestApp, testApiKey } from '../support/test-app';

// A backfill or any SQL write can give published_at microseconds (now() has them); a JS Date cannot.
// Listings seek from anchors read back into Dates, so both must be at one precision.
const { app, db, close } = await createTestApp();
afterAll(close);

const site = await insertSite(db, 'precise');

const list = async (url: string) => {
  const response = await app.inject({
    method: 'GET',
    url: `/api/v1/client${url}`,
    headers: { 'x-api-key': testApiKey },
  });
  expect(response.statusCode, url).toBe(200);
  return response.json() as { data: Array<{ slug: string }>; meta: { pagination: { total: number } } };
};

describe('an article whose published_at was written with microseconds', () => {
  it('is listed on every listing that counts it', async () => {
    await insertArticle(db, { slug: 'backfilled', aggregated: true, siteIds: [site] });
    await sql`update articles set published_at = timestamptz '2026-11-20 12:00:00.123456+00'
      where slug = 'backfilled'`.execute(db);

    for (const url of [
      '/partner-articles',
      '/posts',
      '/partner-articles?site=precise',
      '/posts?site=precise',
    ]) {
      const body = await list(url);
      expect(body.meta.pagination.total, url).toBe(1);
      expect(
        body.data.map((article) => article.slug),
        url,
      ).toEqual(['backfilled']);
    }
  });

  it('is listed after `set published_at = now()`', async () => {
    await insertArticle(db, { slug: 'republished', aggregated: true });
    await sql`update articles set published_at = now() where slug = 'republished'`.execute(db);
    const body = await list('/partner-articles');
    expect(body.data.map((article) => article.slug)).toEqual(['republished', 'backfilled']);
  });

  it('is stored at millisecond precision', async () => {
    const { rows } = await sql<{ micros: string }>`
      select to_char(published_at, 'US') as micros from articles where slug = 'backfilled'`.execute(db);
    expect(rows[0]?.micros).toBe('123000');
  });
});
