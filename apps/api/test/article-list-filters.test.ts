import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite } from './support/content-fixtures';
import { insertPublisher } from './support/dashboard-accounts';
import { createDashboardUsers } from './support/dashboard-users';
import { createTestApp } from './support/test-app';

const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken, publisherId: planetId } = await createDashboardUsers(testApp);
const other = await insertPublisher(app, db, { name: 'Morning Star', approved: true });

const get = (url: string) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${adminToken}` } });
const titles = async (query: string) => {
  const response = await get(`/api/v1/article${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.map((a: { title: string }) => a.title);
};

beforeAll(async () => {
  const metro = await insertSite(db, 'metro');
  const sport = await insertSite(db, 'sport');
  const seeds = [
    { title: 'Manual draft on metro', status: 'draft', siteIds: [metro], tags: ['City', 'Politics'] },
    { title: 'Manual published on both', status: 'published', siteIds: [metro, sport], tags: ['sport'] },
    { title: 'Planet pending', status: 'pending', publisher: planetId, tags: ['CITY'] },
    { title: 'Planet published on sport', status: 'published', publisher: planetId, siteIds: [sport] },
    { title: 'Star pending', status: 'pending', publisher: other.publisherId, tags: ['cityscape'] },
    { title: 'Star rejected', status: 'rejected', publisher: other.publisherId, tags: ['city'] },
  ] as const;
  let minute = 0;
  for (const seed of seeds) {
    const { id } = await insertArticle(db, {
      title: seed.title,
      status: seed.status,
      siteIds: 'siteIds' in seed ? [...seed.siteIds] : [],
      tags: 'tags' in seed ? [...seed.tags] : [],
      aggregated: 'publisher' in seed,
    });
    minute += 1;
    await db
      .updateTable('articles')
      .set({
        publisher_id: 'publisher' in seed ? seed.publisher : null,
        source: 'publisher' in seed ? (seed.publisher === planetId ? 'Daily Planet' : 'Morning Star') : null,
        rss_feed_guid: 'publisher' in seed ? `guid-${minute}` : null,
      })
      .where('id', '=', id)
      .execute();
    // created_at is never written by code (the table type forbids it); tests pin it for a known order.
    await sql`update articles set created_at = ${new Date(Date.UTC(2026, 10, 1, 12, minute))} where id = ${id}`.execute(
      db,
    );
  }
});

describe('GET /api/v1/article filters and counts', () => {
  it('lists newest first with counts per status and a total', async () => {
    const response = await get('/api/v1/article');
    expect(response.json().data[0].title).toBe('Star rejected');
    expect(response.json().meta).toEqual({
      pagination: { page: 1, limit: 20, pages: 1, total: 6, next: null, prev: null },
      counts: { draft: 1, pending: 2, published: 2, rejected: 1, total: 6 },
    });
  });

  it('filters by site slug (an unknown site is 400 UNKNOWN_SITE)', async () => {
    expect(await titles('?site=metro')).toEqual(['Manual published on both', 'Manual draft on metro']);
    expect(await titles('?site=sport')).toEqual(['Planet published on sport', 'Manual published on both']);
    const unknown = await get('/api/v1/article?site=nowhere');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('UNKNOWN_SITE');
  });

  it('filters by origin and publisher', async () => {
    expect(await titles('?origin=manual')).toEqual(['Manual published on both', 'Manual draft on metro']);
    expect(await titles('?origin=imported')).toHaveLength(4);
    expect(await titles(`?publisherId=${planetId}`)).toEqual(['Planet published on sport', 'Planet pending']);
  });

  it('filters by tag exactly and case-insensitively', async () => {
    expect(await titles('?tag=city')).toEqual(['Star rejected', 'Planet pending', 'Manual draft on metro']);
    expect(await titles('?tag=CiTy')).toHaveLength(3);
    expect(await titles('?tag=cit')).toEqual([]);
  });

  it('combines filters; counts ignore only the status filter', async () => {
    const response = await get('/api/v1/article?tag=city&status=pending&q=PLANET');
    expect(response.json().data.map((a: { title: string }) => a.title)).toEqual(['Planet pending']);
    expect(response.json().meta.pagination.total).toBe(1);
    expect(response.json().meta.counts).toEqual({
      draft: 0,
      pending: 1,
      published: 0,
      rejected: 0,
      total: 1,
    });
    const byStatus = await get('/api/v1/article?tag=city&status=draft');
    expect(byStatus.json().meta.counts).toEqual({
      draft: 1,
      pending: 1,
      published: 0,
      rejected: 1,
      total: 3,
    });
  });

  it.each([
    ['an unknown origin', '?origin=robot'],
    ['a malformed publisherId', '?publisherId=planet'],
    ['a malformed site slug', '?site=Metro%20News'],
    ['an empty tag', '?tag='],
  ])('refuses %s with 400', async (_name, query) => {
    const response = await get(`/api/v1/article${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });
});

describe('GET /api/v1/article/pending by publisher', () => {
  it("lists one publisher's pending items, oldest first, with the publisher's name as source", async () => {
    const all = await get('/api/v1/article/pending');
    expect(all.json().data.map((a: { title: string }) => a.title)).toEqual([
      'Planet pending',
      'Star pending',
    ]);
    const star = await get(`/api/v1/article/pending?publisherId=${other.publisherId}`);
    expect(star.json().data).toEqual([
      expect.objectContaining({ title: 'Star pending', source: 'Morning Star' }),
    ]);
    expect(star.json().meta.pagination.total).toBe(1);
  });
});

describe('the list query plans', () => {
  it('uses the new indexes for newest-first over every status, the tag filter and the title search', async () => {
    await sql`analyze articles`.execute(db);
    // One connection for the setting and the plans: a transaction pins it.
    await db.transaction().execute(async (tx) => {
      await sql`set local enable_seqscan = off`.execute(tx);
      const plan = async (query: string) =>
        (await sql.raw<{ 'QUERY PLAN': string }>(`explain ${query}`).execute(tx)).rows
          .map((row) => row['QUERY PLAN'])
          .join('\n');
      expect(await plan('select id from articles order by created_at desc, id desc limit 20')).toContain(
        'articles_created_idx',
      );
      expect(
        await plan("select count(*) from articles where article_tags_lower(tags) @> array[lower('City')]"),
      ).toContain('articles_tags_lower_idx');
      expect(await plan("select count(*) from articles where title ilike '%budget%'")).toContain(
        'articles_title_trgm_idx',
      );
    });
  });
});
