import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type Listing, listPublishedArticles, listPublishedVersions, streamPublishedArticles } from '../src';
import { rankedMatches } from '../src/published/published-search.repository';

const { db, destroy } = await createTestDatabase();
afterAll(destroy);

// rankedMatches + 40 articles matching "harbour", one a minute (n = 1 newest). Every 50th says it in its title
// too (ranks higher). n = 530, older than the ranked part, has the best title of all.
const count = rankedMatches + 40;
await sql`
  insert into articles (title, slug, body, status, published_at)
  select case when n = 530 then 'Harbour harbour harbour' when n % 50 = 0 then 'Harbour news ' || n else 'Item ' || n end,
         'item-' || n, '<p>The harbour opened at dawn.</p>', 'published',
         timestamptz '2026-01-01' - n * interval '1 minute'
    from generate_series(1, ${count}) n`.execute(db);

const search: Listing = {
  siteId: null,
  aggregatedOnly: false,
  tag: null,
  category: null,
  section: null,
  q: 'harbour',
};
const slugsOf = async (page: number, limit: number) =>
  (await listPublishedArticles(db, search, { page, limit })).items.map((article) => article.slug);

describe('search order', () => {
  it('ranks the newest matches, best first, then lists older matches newest first', async () => {
    const all: string[] = [];
    for await (const article of streamPublishedArticles(db, search, 64)) all.push(article.slug);
    expect(all).toHaveLength(count);
    const ranked = all.slice(0, rankedMatches);
    // Title matches first (newest first among equals), inside the ranked part only.
    const titled = Array.from({ length: rankedMatches / 50 }, (_, i) => `item-${(i + 1) * 50}`);
    expect(ranked.slice(0, titled.length)).toEqual(titled);
    expect(new Set(ranked)).toEqual(
      new Set(Array.from({ length: rankedMatches }, (_, i) => `item-${i + 1}`)),
    );
    // Past the ranked part: date order, the best title of all among them where its date puts it.
    expect(all.slice(rankedMatches)).toEqual(
      Array.from({ length: count - rankedMatches }, (_, i) => `item-${rankedMatches + i + 1}`),
    );
  });

  it('pages across the end of the ranked part exactly like the whole order', async () => {
    const all: string[] = [];
    for await (const article of streamPublishedArticles(db, search, 64)) all.push(article.slug);
    const limit = 7;
    const page = Math.floor(rankedMatches / limit) + 1; // straddles the boundary
    expect(await slugsOf(page, limit)).toEqual(all.slice((page - 1) * limit, page * limit));
    expect(await slugsOf(page + 1, limit)).toEqual(all.slice(page * limit, (page + 1) * limit));
    const versions = await listPublishedVersions(db, search, { page, limit });
    // (More than searchCountCap match: the total is counted one page further, a lower bound.)
    expect(versions).toMatchObject({ total: page * limit + 1, totalIsLowerBound: true });
    expect(versions.items).toHaveLength(limit);
  });
});
