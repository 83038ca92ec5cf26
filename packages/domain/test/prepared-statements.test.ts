import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createDb,
  type Db,
  findListingOutline,
  findPublishedArticleBySlug,
  findPublishedArticlesByIds,
  type Listing,
  listPublishedArticles,
  listPublishedVersions,
} from '../src';
import { executePrepared } from '../src/db/prepared-statements';

// DATABASE_PREPARED_STATEMENTS: on, the hottest reads run as named prepared statements on their connection;
// off (PgBouncer in transaction mode), the same reads run as unnamed statements and answer the same.

const { db, url, destroy } = await createTestDatabase();
// One connection each, so pg_prepared_statements sees the connection the queries ran on.
const on = createDb({ connectionString: url, max: 1, preparedStatements: true });
const off = createDb({ connectionString: url, max: 1, preparedStatements: false });
afterAll(async () => {
  await Promise.all([on.destroy(), off.destroy()]);
  await destroy();
});

const site = (
  await db.insertInto('sites').values({ slug: 's', name: 'S' }).returning('id').executeTakeFirstOrThrow()
).id;
await sql`
  insert into articles (title, slug, status, published_at)
  select 'T' || n, 'a-' || n, 'published', timestamptz '2026-01-01' - n * interval '1 minute'
    from generate_series(1, 60) n`.execute(db);
await sql`insert into article_sites (article_id, site_id) select id, ${site}::uuid from articles`.execute(db);

const listing: Listing = { siteId: site, aggregatedOnly: false, tag: null, category: null, section: null };

const preparedOn = async (handle: Db) =>
  (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(handle)).rows.map(
    (row) => row.statement,
  );

/** The hot reads of the client API, as they run per request. */
async function hotReads(handle: Db) {
  const outline = await findListingOutline(handle, listing);
  const page = await listPublishedArticles(handle, listing, { page: 2, limit: 10 }, outline);
  const versions = await listPublishedVersions(handle, listing, { page: 2, limit: 10 }, outline);
  const byIds = await findPublishedArticlesByIds(handle, [versions.items[0]?.id as string]);
  const bySlug = await findPublishedArticleBySlug(handle, site, 'a-3');
  return {
    page: page.items.map((article) => article.id),
    versions: versions.items.map((version) => version.id),
    byIds: byIds.map(({ article }) => article.id),
    bySlug: bySlug?.id,
  };
}

describe('prepared statements', () => {
  it('on: the hot reads become named statements of the connection, each parsed once', async () => {
    const first = await hotReads(on);
    const statements = await preparedOn(on);
    expect(statements.length).toBeGreaterThanOrEqual(4);
    expect(statements.every((text) => text.startsWith('/* prepared */ '))).toBe(true);
    expect(await hotReads(on)).toEqual(first);
    expect(await preparedOn(on)).toHaveLength(statements.length);
  });

  it('off: the same reads prepare nothing and answer the same', async () => {
    expect(await hotReads(off)).toEqual(await hotReads(on));
    expect(await preparedOn(off)).toEqual([]);
  });

  it('off: a marked query inside a transaction prepares nothing either', async () => {
    const rows = await off
      .transaction()
      .execute((tx) => executePrepared(tx, tx.selectFrom('sites').select('slug').where('id', '=', site)));
    expect(rows).toEqual([{ slug: 's' }]);
    expect(await preparedOn(off)).toEqual([]);
  });
});
