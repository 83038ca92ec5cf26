import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite } from './support/content-fixtures';
import { createDashboardUsers } from './support/dashboard-users';
import { createTestApp } from './support/test-app';

const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken } = await createDashboardUsers(testApp);

describe('GET /api/v1/site article counts', () => {
  it('gives each site how many articles it hosts and how many of them are published', async () => {
    const metro = await insertSite(db, 'metro');
    const sport = await insertSite(db, 'sport');
    await insertSite(db, 'empty');
    await insertArticle(db, { status: 'published', siteIds: [metro, sport] });
    await insertArticle(db, { status: 'published', siteIds: [metro] });
    await insertArticle(db, { status: 'draft', siteIds: [metro] });
    await insertArticle(db, { status: 'pending', siteIds: [sport], aggregated: true });
    await insertArticle(db, { status: 'published', siteIds: [] });

    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/site',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(response.statusCode).toBe(200);
    const counts = Object.fromEntries(
      response
        .json()
        .data.map((site: { slug: string; articleCount: unknown }) => [site.slug, site.articleCount]),
    );
    expect(counts).toEqual({
      empty: { total: 0, published: 0 },
      metro: { total: 3, published: 2 },
      sport: { total: 2, published: 1 },
    });
    expect(response.json().data[0]).toMatchObject({ slug: 'empty', name: 'Site empty', domain: null });
  });
});
