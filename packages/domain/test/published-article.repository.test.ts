import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import {
  changeArticleStatus,
  createDb,
  findListingOutline,
  findPublishedArticleBySlug,
  findPublishedArticlesByIds,
  type Listing,
  listPublishedArticles,
  listPublishedVersions,
  replaceArticleSites,
  streamPublishedArticles,
} from '../src';
import { executePreparedTemplate } from '../src/db/prepared-statements';
import { listingAnchorStep } from '../src/published/published-listing';

const { db, url, destroy } = await createTestDatabase();
afterAll(destroy);

const [siteA, siteB] = await db
  .insertInto('sites')
  .values([
    { slug: 'a', name: 'A' },
    { slug: 'b', name: 'B' },
  ])
  .returning('id')
  .execute()
  .then((rows) => rows.map((row) => row.id) as [string, string]);

// 1,300 published articles with many equal publication times (ties are broken by id),
// on site A, every third also on B, every fifth aggregated; plus some drafts.
const count = 1_300;
await sql`
  insert into articles (title, slug, status, published_at, is_aggregated, tags)
  select 'T' || n, 'bulk-' || n, 'published', timestamptz '2026-01-01' - (n / 7) * interval '1 minute',
         n % 5 = 0, case when n % 2 = 0 then array['even'] else array['odd'] end
    from generate_series(1, ${count}) n`.execute(db);
await sql`insert into articles (title, slug, status) select 'D' || n, 'draft-' || n, 'draft' from generate_series(1, 50) n`.execute(
  db,
);
await sql`insert into article_sites (article_id, site_id) select id, ${siteA}::uuid from articles`.execute(
  db,
);
await sql`insert into article_sites (article_id, site_id)
  select id, ${siteB}::uuid from articles where substring(slug from '[0-9]+$')::int % 3 = 0`.execute(db);

const listing = (over: Partial<Listing> = {}): Listing => ({
  siteId: null,
  aggregatedOnly: false,
  tag: null,
  category: null,
  section: null,
  ...over,
});

/** The reference answer: the plain OFFSET query over the articles table. */
async function expectedIds(scope: Listing, offset: number, limit: number): Promise<string[]> {
  let query = db
    .selectFrom('articles')
    .select('id')
    .where('status', '=', 'published')
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit);
  if (scope.siteId) {
    const siteId = scope.siteId;
    query = query.where('id', 'in', (eb) =>
      eb.selectFrom('article_sites').select('article_id').where('site_id', '=', siteId),
    );
  }
  if (scope.aggregatedOnly) query = query.where('is_aggregated', '=', true);
  if (scope.tag) {
    const tags = scope.tag.split(',').map((tag) => tag.trim().toLowerCase());
    query = query.where(sql<boolean>`array(select lower(t) from unnest(tags) t) && ${tags}::text[]`);
  }
  if (scope.aggregated != null) query = query.where('is_aggregated', '=', scope.aggregated);
  if (scope.publishedAfter) query = query.where('published_at', '>=', scope.publishedAfter);
  if (scope.publishedBefore) query = query.where('published_at', '<', scope.publishedBefore);
  return (await query.execute()).map((row) => row.id);
}

describe('published listings', () => {
  it.each([
    ['the network', listing()],
    ['site A', listing({ siteId: siteA })],
    ['site B', listing({ siteId: siteB })],
    ['partner articles of site A', listing({ siteId: siteA, aggregatedOnly: true })],
    ['a tag on site B', listing({ siteId: siteB, tag: 'even' })],
    ['a tag on the network', listing({ tag: 'odd' })],
    ['a tag list, any case, on site A', listing({ siteId: siteA, tag: 'ODD, even' })],
    ['manual articles of site B', listing({ siteId: siteB, aggregated: false })],
    ['aggregated articles of the network', listing({ aggregated: true })],
    [
      'a date range on site A',
      listing({
        siteId: siteA,
        publishedAfter: new Date('2025-12-31T23:00:00Z'),
        publishedBefore: new Date('2025-12-31T23:50:00Z'),
      }),
    ],
    ['a date on the network', listing({ publishedBefore: new Date('2025-12-31T23:30:00Z') })],
  ])('pages through %s exactly like OFFSET, across anchors', async (_name, scope) => {
    const outline = await findListingOutline(db, scope);
    const total = (await expectedIds(scope, 0, 100_000)).length;
    expect(outline.total).toBe(total);
    expect(outline.anchors).toHaveLength(Math.ceil(total / listingAnchorStep));
    for (const limit of [7, 100]) {
      for (const page of [
        1,
        2,
        Math.floor(listingAnchorStep / limit) + 1,
        Math.ceil(total / limit),
        Math.ceil(total / limit) + 1,
      ]) {
        const result = await listPublishedArticles(db, scope, { page, limit }, outline);
        expect(result.total).toBe(total);
        const expected = await expectedIds(scope, (page - 1) * limit, limit);
        expect(result.items.map((a) => a.id)).toEqual(expected);
        const versions = await listPublishedVersions(db, scope, { page, limit }, outline);
        expect(versions.total).toBe(total);
        expect(versions.items.map((v) => v.id)).toEqual(expected);
      }
    }
  });

  it('computes the outline itself when none is given', async () => {
    const scope = listing({ siteId: siteB });
    const result = await listPublishedArticles(db, scope, { page: 3, limit: 50 });
    expect(result.items.map((a) => a.id)).toEqual(await expectedIds(scope, 100, 50));
  });

  it('streams every article of a scope in order', async () => {
    const scope = listing({ siteId: siteB });
    const streamed: string[] = [];
    for await (const article of streamPublishedArticles(db, scope, 64)) streamed.push(article.id);
    expect(streamed).toEqual(await expectedIds(scope, 0, 100_000));
  });

  it('stops the cursor when the reader stops early', async () => {
    for await (const _article of streamPublishedArticles(db, listing(), 10)) break;
    // The connection went back to the pool in a usable state.
    expect((await findListingOutline(db, listing({ siteId: siteA }))).total).toBeGreaterThan(0);
  });
});

describe('prepared statements', () => {
  // One connection, so pg_prepared_statements and `set` below see the connection the queries ran on.
  const single = createDb({ connectionString: url, max: 1 });
  afterAll(() => single.destroy());
  const prepared = async () =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(single)).rows.map(
      (row) => row.statement,
    );

  it('prepares unfiltered pages and slug lookups, not filtered listings', async () => {
    await listPublishedArticles(single, listing({ siteId: siteA, tag: 'even' }), { page: 1, limit: 5 });
    expect(await prepared()).toEqual([]);
    await listPublishedArticles(single, listing({ siteId: siteA }), { page: 1, limit: 5 });
    await findPublishedArticleBySlug(single, siteA, 'bulk-1');
    const statements = await prepared();
    expect(statements).toHaveLength(2);
    expect(statements.some((text) => text.includes('limit 5'))).toBe(true);
  });

  it('answers exactly like OFFSET with generic plans, for every listing shape', async () => {
    await sql`set plan_cache_mode = force_generic_plan`.execute(single);
    try {
      const scopes = [
        listing(),
        listing({ siteId: siteA }),
        listing({ siteId: siteB }),
        listing({ aggregatedOnly: true }),
        listing({ siteId: siteA, aggregatedOnly: true }),
      ];
      for (const scope of scopes) {
        const outline = await findListingOutline(single, scope);
        for (const page of [1, 2, 3, 40, 41, 42, Math.ceil(outline.total / 12)]) {
          const result = await listPublishedArticles(single, scope, { page, limit: 12 }, outline);
          const expected = await expectedIds(scope, (page - 1) * 12, 12);
          expect(result.items.map((a) => a.id)).toEqual(expected);
          // Page versions are compiled once per shape and only bound per call: each scope gets its own rows.
          const versions = await listPublishedVersions(single, scope, { page, limit: 12 }, outline);
          expect(versions.items.map((v) => v.id)).toEqual(expected);
        }
      }
      expect(await findPublishedArticleBySlug(single, siteB, 'bulk-3')).toMatchObject({ slug: 'bulk-3' });
      expect(await findPublishedArticleBySlug(single, siteB, 'bulk-1')).toBeUndefined();
      expect(await findPublishedArticleBySlug(single, null, 'draft-1')).toBeUndefined();
    } finally {
      await sql`reset plan_cache_mode`.execute(single);
    }
  });

  it('refuses a template that would freeze a bound value', async () => {
    const build = () => single.selectFrom('articles').select('id').where('slug', '=', 'bulk-1');
    await expect(executePreparedTemplate(single, 'test-frozen', build, {})).rejects.toThrow(/not a param/);
  });

  it('runs inside a transaction too', async () => {
    const items = await single
      .transaction()
      .execute((tx) => listPublishedArticles(tx, listing({ siteId: siteB }), { page: 2, limit: 3 }));
    expect(items.items.map((a) => a.id)).toEqual(await expectedIds(listing({ siteId: siteB }), 3, 3));
  });
});

describe('listing copies on article_sites', () => {
  const copyOf = (articleId: string) =>
    db
      .selectFrom('article_sites')
      .select(['site_id', 'published_at', 'is_aggregated'])
      .where('article_id', '=', articleId)
      .orderBy('site_id')
      .execute();

  it('follow publish, unpublish and host-site changes', async () => {
    const article = await db
      .insertInto('articles')
      .values({ title: 'Copy', slug: 'copy', status: 'draft' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.transaction().execute((tx) => replaceArticleSites(tx, article.id, [siteA]));
    expect(await copyOf(article.id)).toEqual([{ site_id: siteA, published_at: null, is_aggregated: false }]);

    const published = await changeArticleStatus(db, article.id, 'publish');
    expect(await copyOf(article.id)).toEqual([
      { site_id: siteA, published_at: published.publishedAt, is_aggregated: false },
    ]);

    await db.transaction().execute((tx) => replaceArticleSites(tx, article.id, [siteA, siteB]));
    const copies = await copyOf(article.id);
    expect(copies.map((c) => c.published_at)).toEqual([published.publishedAt, published.publishedAt]);

    await changeArticleStatus(db, article.id, 'unpublish');
    expect((await copyOf(article.id)).map((c) => c.published_at)).toEqual([null, null]);
  });
});

describe('article row versions', () => {
  it('name each committed state of an article, and ids read back only published articles', async () => {
    const scope = listing({ siteId: siteB });
    const [first] = (await listPublishedVersions(db, scope, { page: 1, limit: 1 })).items;
    const { id, version } = first as { id: string; version: string };
    const draft = await db
      .selectFrom('articles')
      .select('id')
      .where('slug', '=', 'draft-1')
      .executeTakeFirstOrThrow();
    const read = await findPublishedArticlesByIds(db, [id, draft.id]);
    expect(read.map((entry) => [entry.article.id, entry.version])).toEqual([[id, version]]);

    await db.updateTable('articles').set({ title: 'New title' }).where('id', '=', id).execute();
    const [after] = await findPublishedArticlesByIds(db, [id]);
    expect(after?.article.title).toBe('New title');
    expect(after?.version).not.toBe(version);
    const [again] = (await listPublishedVersions(db, scope, { page: 1, limit: 1 })).items;
    // With its list position (publishedAt), which a list cursor is made of.
    expect(again).toEqual({ id, version: after?.version, publishedAt: expect.any(Date) });
    expect(await findPublishedArticlesByIds(db, [])).toEqual([]);
  });
});
