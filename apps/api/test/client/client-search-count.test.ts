import { searchCountCap } from '@newsroom/domain';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { insertSite, issueSiteKey } from '../support/content-fixtures';
import { createTestApp } from '../support/test-app';

const { app, db, close } = await createTestApp();
afterAll(close);

// searchCountCap + 30 published articles on one site saying "harbour", one a minute (n = 1 newest).
const count = searchCountCap + 30;
const site = await insertSite(db, 'port');
const { key } = await issueSiteKey(db, site);
await sql`
  insert into articles (title, slug, body, status, published_at)
  select 'Item ' || n, 'item-' || n, '<p>The harbour opened at dawn.</p>', 'published',
         timestamptz '2026-01-01' - n * interval '1 minute'
    from generate_series(1, ${count}) n`.execute(db);
await sql`insert into article_sites (article_id, site_id) select id, ${site} from articles`.execute(db);

const paginationOf = async (query: string) => {
  const response = await app.inject({ url: `/api/v1/client/posts?${query}`, headers: { 'x-api-key': key } });
  expect(response.statusCode).toBe(200);
  return response.json().meta.pagination;
};

describe('the total of a search', () => {
  it('is a lower bound past the cap, and next still leads to every page', async () => {
    expect(await paginationOf('q=harbour&limit=100')).toEqual({
      page: 1,
      limit: 100,
      pages: searchCountCap / 100,
      total: searchCountCap,
      totalRelation: 'gte',
      next: 2,
      prev: null,
    });
    // The page that reaches the cap is counted one further: a next page shows.
    const atCap = await paginationOf(`q=harbour&limit=100&page=${searchCountCap / 100}`);
    expect(atCap).toMatchObject({
      total: searchCountCap + 1,
      totalRelation: 'gte',
      next: searchCountCap / 100 + 1,
    });
    // The last page knows the end: exact.
    const last = await paginationOf(`q=harbour&limit=100&page=${searchCountCap / 100 + 1}`);
    expect(last).toMatchObject({ total: count, totalRelation: 'eq', next: null });
  });

  it('is exact below the cap, and lists without a search carry no relation', async () => {
    expect(await paginationOf('q=dawn%20-harbour')).toMatchObject({ total: 0, totalRelation: 'eq' });
    const plain = await paginationOf('limit=10');
    expect(plain.total).toBe(count);
    expect(plain).not.toHaveProperty('totalRelation');
  });
});
