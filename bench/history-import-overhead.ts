/** `pnpm bench:history`, part 2: an import cycle's revision overhead (see history-benchmark.ts). */
import { findArticlesByIds } from '../packages/domain/src/articles/article.repository';
import { insertRevisions } from '../packages/domain/src/articles/revisions/article-revision.repository';
import { firstRevisionRows } from '../packages/domain/src/articles/revisions/revision-recorder';
import type { Db } from '../packages/domain/src/db/create-db';
import { importFeedItems } from '../packages/domain/src/imports/feed-import.service';
import type { ImportableFeedItem } from '../packages/domain/src/imports/imported-article';
import {
  insertArticleSiteLinks,
  insertSiteLinksAndRevisions,
} from '../packages/domain/src/imports/imported-article.repository';
import { body3k, ms } from './history-shared';
import { log } from './log';

const hostSitesPerPublisher = Number(process.env.BENCH_HOST_SITES ?? 1);
const publishers = Number(process.env.BENCH_PUBLISHERS ?? 100);
const newItems = 3;

function feedItems(publisher: number, cycle: number): ImportableFeedItem[] {
  return Array.from({ length: newItems }, (_, k) => ({
    guid: `p${publisher}-c${cycle}-${k}`,
    title: `Story ${publisher}-${cycle}-${k}`,
    body: body3k(` ${publisher}-${cycle}-${k}`),
    url: `https://news.example/${publisher}/${cycle}/${k}`,
    thumbnail: null,
    image: null,
    categories: ['News'],
    publishedAt: new Date('2026-11-21T10:00:00Z'),
  }));
}

export async function importOverhead(db: Db) {
  const ids: string[] = [];
  for (let p = 0; p < publishers; p++) {
    const { id } = await db
      .insertInto('publishers')
      .values({
        name: `Publisher ${p}`,
        feed_url: `https://p${p}.example/feed`,
        approved: true,
        auto_approve: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(id);
  }
  // Each publisher's default host sites: the import links its articles to them, with the first revisions
  // in the same statement (BENCH_HOST_SITES=0: the revisions in a statement of their own).
  const siteIds: string[] = [];
  for (let n = 0; n < hostSitesPerPublisher; n++) {
    const site = await db
      .insertInto('sites')
      .values({ slug: `site-${n}`, name: `Site ${n}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    siteIds.push(site.id);
  }
  if (siteIds.length > 0) {
    await db
      .insertInto('publisher_default_sites')
      .values(
        ids.flatMap((publisherId) =>
          siteIds.map((siteId) => ({ publisher_id: publisherId, site_id: siteId })),
        ),
      )
      .execute();
  }
  const cycle = async (n: number) => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (const [p, id] of ids.entries()) {
      await importFeedItems(db, id, {
        notModified: false,
        items: feedItems(p, n),
        etag: null,
        lastModified: null,
      });
    }
    const used = process.cpuUsage(cpu);
    return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
  };
  await cycle(0); // warm-up: the first articles, plans, JIT
  const measured = await cycle(1);
  // The revision part alone, on the same articles: their revisions removed (untimed), then the import's
  // last statement replayed per publisher batch, in one transaction each: the site links with the first
  // revisions, against the site links alone (both find the links there: ON CONFLICT DO NOTHING).
  const batches: string[][] = [];
  for (const id of ids) {
    const rows = await db
      .selectFrom('articles')
      .select('id')
      .where('publisher_id', '=', id)
      .where('rss_feed_guid', 'like', '%-c1-%')
      .execute();
    batches.push(rows.map((row) => row.id));
  }
  // The import builds them from the rows its insert returns; here they are read first, untimed.
  const articles = await Promise.all(batches.map((batch) => findArticlesByIds(db, batch)));
  // 'fused': the links with the revisions (the import now); 'previous': the links, then the revisions in a
  // statement of their own (the import before); 'links': the links alone.
  const replay = async (mode: 'fused' | 'previous' | 'links') => {
    if (mode !== 'links') {
      await db.deleteFrom('article_revisions').where('article_id', 'in', batches.flat()).execute();
    }
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (const [p, batch] of articles.entries()) {
      await db.transaction().execute(async (tx) => {
        const batchIds = batch.map((article) => article.id);
        const rows = firstRevisionRows(batch, {
          actor: { kind: 'feed', id: ids[p] as string, label: `Publisher ${p}` },
          source: 'import',
        });
        if (mode === 'fused') await insertSiteLinksAndRevisions(tx, batchIds, siteIds, rows);
        else {
          await insertArticleSiteLinks(tx, batchIds, siteIds);
          if (mode === 'previous') await insertRevisions(tx, rows);
        }
      });
    }
    const used = process.cpuUsage(cpu);
    return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
  };
  let part = 0;
  let revisionCpu = 0;
  let previousPart = 0;
  let previousCpu = 0;
  for (let repeat = 0; repeat < 2; repeat++) {
    const recorded = await replay('fused');
    const linksOnly = await replay('links');
    const previous = await replay('previous');
    part += (recorded.wall - linksOnly.wall) / 2;
    revisionCpu += (recorded.cpu - linksOnly.cpu) / 2;
    previousPart += (previous.wall - linksOnly.wall) / 2;
    previousCpu += (previous.cpu - linksOnly.cpu) / 2;
  }
  log(
    `\nimport cycle: ${publishers} changed feeds x ${newItems} new ~3 KB items, ${siteIds.length} host site(s) each`,
  );
  log(
    `  cycle with revisions: ${ms(measured.wall)} wall, ${ms(measured.cpu)} CPU (this process: domain + driver)`,
  );
  log(
    `  revision part: ${ms(part)} wall, ${ms(revisionCpu)} CPU (replayed batches, links and revisions less links alone, mean of 2)`,
  );
  log(
    `  overhead: wall +${((part / (measured.wall - part)) * 100).toFixed(1)}%, CPU +${((revisionCpu / (measured.cpu - revisionCpu)) * 100).toFixed(1)}%`,
  );
  log(
    `  CPU per changed feed: ${ms(measured.cpu / publishers)} with revisions, of which ${ms(revisionCpu / publishers)} revisions`,
  );
  log(
    `  the previous way (revisions in a statement of their own), same run: ${ms(previousPart)} wall, ${ms(previousCpu)} CPU: overhead wall +${((previousPart / (measured.wall - part)) * 100).toFixed(1)}%, CPU +${((previousCpu / (measured.cpu - revisionCpu)) * 100).toFixed(1)}%`,
  );
}
