import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import {
  countSearchMatches,
  findListingOutline,
  type Listing,
  listPublishedArticles,
  listPublishedVersions,
  searchCountCap,
} from '../src';
import type { SearchTest } from '../src/published/published-filters';
import { findSearchOutline, rankedMatches } from '../src/published/published-search.repository';

const { db, destroy } = await createTestDatabase();
afterAll(destroy);

// 620 published articles saying "harbour", one a minute (n = 1 newest), alternately on sites north (odd n)
// and south (even n); every 7th has "storm" in its title, every 5th says "river flood" (a phrase), every 3rd
// "flood river"; every 4th is imported and tagged Heroes; plus drafts that would match everything.
const count = 620;
await sql`insert into sites (slug, name) values ('north', 'North'), ('south', 'South')`.execute(db);
await sql`
  insert into articles (title, slug, body, status, published_at, tags, is_aggregated)
  select case when n % 7 = 0 then 'Storm over the harbour ' || n else 'Item ' || n end,
         'item-' || n,
         '<p>The harbour opened at dawn.' ||
           case when n % 5 = 0 then ' A river flood came.' else '' end ||
           case when n % 3 = 0 then ' The flood river rose.' else '' end ||
           repeat(' harbour', n % 4) || '</p>',
         'published', timestamptz '2026-01-01' - n * interval '1 minute',
         case when n % 4 = 0 then array['Heroes'] else '{}'::text[] end, n % 4 = 0
    from generate_series(1, ${count}) n`.execute(db);
await sql`
  insert into articles (title, slug, body, status)
  select 'Storm harbour draft ' || n, 'draft-' || n, '<p>harbour river flood storm</p>', 'draft'
    from generate_series(1, 30) n`.execute(db);
await sql`
  insert into article_sites (article_id, site_id)
  select a.id, s.id from articles a join sites s
    on s.slug = case when substring(a.slug from 6)::int % 2 = 1 then 'north' else 'south' end
   where a.status = 'published'`.execute(db);
await sql`analyze`.execute(db);
const [north, south] = (await sql<{ id: string }>`select id from sites order by slug`.execute(db)).rows.map(
  (row) => row.id,
);

const listing = (q: string, more: Partial<Listing> = {}): Listing => ({
  siteId: null,
  aggregatedOnly: false,
  tag: null,
  category: null,
  section: null,
  q,
  ...more,
});

describe('search count', () => {
  const harbour = listing('harbour');

  it('counts up to the cap and says when more match', async () => {
    const outline = await findListingOutline(db, harbour);
    expect(outline).toMatchObject({ total: searchCountCap, totalIsLowerBound: true, anchors: [] });
    expect(outline.ranked).toHaveLength(rankedMatches);
    const few = await findListingOutline(db, listing('storm'));
    expect(few).toMatchObject({ total: Math.floor(count / 7), totalIsLowerBound: false });
  });

  it('keeps pages and next right past the cap, and turns exact once the end is in reach', async () => {
    const limit = 20;
    const first = await listPublishedVersions(db, harbour, { page: 1, limit });
    expect(first).toMatchObject({ total: searchCountCap, totalIsLowerBound: true });
    // Page 25 ends at the cap: counted one further, so a page 26 shows.
    const atCap = await listPublishedVersions(db, harbour, { page: 25, limit });
    expect(atCap).toMatchObject({ total: 25 * limit + 1, totalIsLowerBound: true });
    expect(atCap.items).toHaveLength(limit);
    const past = await listPublishedVersions(db, harbour, { page: 26, limit });
    expect(past).toMatchObject({ total: 26 * limit + 1, totalIsLowerBound: true });
    // The last page (601-620) reaches the end: the total is exact.
    const last = await listPublishedArticles(db, harbour, { page: 31, limit });
    expect(last).toMatchObject({ total: count, totalIsLowerBound: false });
    expect(last.items.map((article) => article.slug)).toEqual(
      Array.from({ length: limit }, (_, i) => `item-${601 + i}`),
    );
    const beyond = await listPublishedVersions(db, harbour, { page: 32, limit });
    expect(beyond).toEqual({ items: [], total: count, offset: 31 * limit, totalIsLowerBound: false });
  });

  it('counts exactly within a reach, whichever way it finds matches', async () => {
    for (const test of ['row', 'index'] as const) {
      expect(await countSearchMatches(db, harbour, 10_000, test)).toBe(count);
      expect(await countSearchMatches(db, harbour, 600, test)).toBe(600);
      expect(
        await countSearchMatches(db, listing('harbour', { siteId: north as string }), 10_000, test),
      ).toBe(count / 2);
    }
  });

  it('reports no lower bound on listings without a search', async () => {
    const plain = await listPublishedVersions(db, { ...harbour, q: null }, { page: 1, limit: 5 });
    expect(plain.total).toBe(count);
    expect(plain).not.toHaveProperty('totalIsLowerBound');
  });
});

describe('the two ways of finding matches', () => {
  const scopes: Array<Partial<Listing>> = [
    {},
    { siteId: north as string },
    { siteId: south as string },
    { siteId: south as string, tag: 'heroes' },
    { aggregated: true },
    { siteId: north as string, aggregatedOnly: true },
    { publishedBefore: new Date('2025-12-31T20:00:00Z') },
  ];
  const queries = ['harbour', 'storm', '"river flood"', 'storm or flood', 'flood -river', 'harbour storm'];
  const outlineBy = (search: Listing, test: SearchTest) => findSearchOutline(db, search, test);

  it('give the same outline for every query, scope and filter', async () => {
    for (const more of scopes) {
      for (const q of queries) {
        const search = listing(q, more);
        const byRow = await outlineBy(search, 'row');
        expect(await outlineBy(search, 'index'), `${q} ${JSON.stringify(more)}`).toEqual(byRow);
        // Without a way given, the statement chooses one itself (either gives this outline).
        expect(await findSearchOutline(db, search), `${q} ${JSON.stringify(more)} chosen`).toEqual(byRow);
      }
    }
  });

  it('rank the newest matches of the scope only, as ts_rank orders them', async () => {
    const search = listing('flood', { siteId: south as string });
    const { rows } = await sql<{ id: string }>`
      select id from (
        select a.id, a.published_at, ts_rank(a.search_vector, websearch_to_tsquery('english', 'flood')) as rank
          from articles a join article_sites s on s.article_id = a.id and s.site_id = ${south}
         where a.status = 'published' and a.search_vector @@ websearch_to_tsquery('english', 'flood')
         order by a.published_at desc, a.id desc
         limit ${rankedMatches}) newest
       order by rank desc, published_at desc, id desc`.execute(db);
    const expected = rows.map((row) => row.id);
    for (const test of ['row', 'index'] as const) {
      const outline = await outlineBy(search, test);
      expect(outline.ranked).toEqual(expected);
      expect(outline.total).toBe(expected.length);
      expect(outline.totalIsLowerBound).toBe(false);
    }
    // A phrase matches its words in order only; drafts never match.
    const phrase = await outlineBy(listing('"river flood"'), 'row');
    expect(phrase.total).toBe(count / 5);
  });
});
