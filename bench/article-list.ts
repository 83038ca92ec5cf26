/**
 * The dashboard's article list with 50,000 articles: median time of each filter combination
 * (page + counts, as GET /api/v1/article runs them), and the plans. Needs a migrated database in
 * DATABASE_URL; seeds it (50,000 articles, 5 sites, 200 publishers) when it has no articles.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scratch pnpm exec tsx bench/article-list.ts
 */
import { createDb, listSites } from '@newsroom/domain';
import { sql } from 'kysely';
import { listArticlesWithCounts } from '../apps/api/src/articles/article-list';

const seedSql = `
insert into sites (slug, name) select 'site-' || i, 'Site ' || i from generate_series(1, 5) i;
insert into publishers (name, approved) select 'Publisher ' || i, true from generate_series(1, 200) i;
with p as (select id, row_number() over (order by id) - 1 as n from publishers)
insert into articles (title, slug, body, tags, status, is_aggregated, publisher_id, rss_feed_guid, published_at, created_at)
select 'Story ' || i || case when i % 97 = 0 then ' budget vote' else ' about the town' end, 'story-' || i,
       repeat('<p>text</p>', 200), array['Tag' || (i % 50), 'news'],
       (array['draft', 'pending', 'published', 'rejected'])[1 + i % 4], i % 3 <> 0,
       case when i % 3 <> 0 then p.id end, case when i % 3 <> 0 then 'g' || i end,
       case when i % 4 = 2 then now() - (i || ' minutes')::interval end, now() - (i || ' minutes')::interval
from generate_series(1, 50000) i join p on p.n = i % 200;
insert into article_sites (article_id, site_id)
select a.id, s.id from articles a join sites s on s.slug = 'site-' || (1 + abs(hashtext(a.slug)) % 5);
analyze;`;

async function median(run: () => Promise<unknown>, rounds = 15): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)] as number;
}

const db = createDb({ connectionString: process.env.DATABASE_URL as string, max: 4 });
try {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from articles`.execute(db);
  if ((rows[0]?.n ?? 0) === 0) await sql.raw(seedSql).execute(db);
  const publisherId = (await db.selectFrom('publishers').select('id').executeTakeFirstOrThrow()).id;
  const page = { page: 1, limit: 20 };
  const cases: [string, Parameters<typeof listArticlesWithCounts>[1]][] = [
    ['no filter', page],
    ['no filter, page 500', { page: 500, limit: 20 }],
    ['status=pending', { ...page, status: 'pending' }],
    ['site', { ...page, site: 'site-3' }],
    ['site + status=published', { ...page, site: 'site-3', status: 'published' }],
    ['origin=manual', { ...page, origin: 'manual' }],
    ['publisherId', { ...page, publisherId }],
    ['tag (case-insensitive)', { ...page, tag: 'tag7' }],
    ['q=budget', { ...page, q: 'budget' }],
    ['q + status + site', { ...page, q: 'budget', status: 'draft', site: 'site-1' }],
  ];
  const counted = await sql<{ n: number }>`select count(*)::int as n from articles`.execute(db);
  console.log(`articles: ${counted.rows[0]?.n}, sites: ${(await listSites(db)).length}`);
  for (const [name, query] of cases) {
    const ms = await median(() => listArticlesWithCounts(db, query));
    console.log(`${name.padEnd(28)} ${ms.toFixed(1)} ms (page + counts, median of 15)`);
  }
} finally {
  await db.destroy();
}
