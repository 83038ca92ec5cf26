/**
 * Article revisions benchmark (`pnpm bench:history`): figures printed, nothing asserted. Local Postgres only,
 * in a database of its own (created, migrated, dropped).
 *
 * 1. `PUT /article/:id`'s write in the domain, with revisions (editArticle: one transaction, the update, the
 *    full read with the newest revisions' authors, the new revision inserted whole and the article queued for
 *    the worker's compaction pass, whose cost per revision is printed after)
 *    against the same write without them (the update and the read as they were before revisions, from the
 *    same repository functions), alternating in rounds so both see the same machine. p50/p99 and the ratio.
 *    Domain level on purpose: the HTTP layer costs both the same, so this is the larger relative overhead.
 * 2. An import cycle: BENCH_PUBLISHERS (default 100) changed feeds of 3 new ~3 KB items each, BENCH_HOST_SITES
 *    (default 1) default host sites per publisher, through importFeedItems (with revisions), then the revision
 *    part alone replayed on the same articles (the import's last statement, the site links with the first
 *    revisions, against the links alone): overhead = revision part / (cycle - revision part), wall time and
 *    this process's CPU.
 * 3. Storage: 50 edits of a 3 KB article, one place changed each time (as an editor corrects a story),
 *    after the worker's compaction pass (compactArticleRevisions) turned all but the newest into deltas:
 *    bytes of revision data after Postgres' compression (pg_column_size) and of whole rows, against the
 *    article's body size (goal: data <= 2x the article).
 */
import { randomBytes } from 'node:crypto';
import { migrateToLatest } from '@newsroom/migrations';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import {
  findArticleById,
  findArticlesByIds,
  updateArticleColumns,
} from '../packages/domain/src/articles/article.repository';
import { createArticle, editArticle } from '../packages/domain/src/articles/article.service';
import {
  insertRevisions,
  measureRevisionStorage,
} from '../packages/domain/src/articles/revisions/article-revision.repository';
import { compactArticleRevisions } from '../packages/domain/src/articles/revisions/revision-compaction';
import { firstRevisionRows } from '../packages/domain/src/articles/revisions/revision-recorder';
import type { RevisionWrite } from '../packages/domain/src/articles/revisions/revision-write';
import { createDb, type Db } from '../packages/domain/src/db/create-db';
import { importFeedItems } from '../packages/domain/src/imports/feed-import.service';
import type { ImportableFeedItem } from '../packages/domain/src/imports/imported-article';
import {
  insertArticleSiteLinks,
  insertSiteLinksAndRevisions,
} from '../packages/domain/src/imports/imported-article.repository';
import { previousEdit } from './history-previous-recorder';

const serverUrl = process.env.BENCH_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const editsPerRound = Number(process.env.BENCH_EDITS ?? 100);
const hostSitesPerPublisher = Number(process.env.BENCH_HOST_SITES ?? 1);
const publishers = Number(process.env.BENCH_PUBLISHERS ?? 100);
const newItems = 3;
const log = (line: string) => process.stdout.write(`${line}\n`);

const editor: RevisionWrite = {
  actor: { kind: 'user', id: 'bench-user', label: 'bench@example.com' },
  source: 'editor',
};

const paragraph = (i: number, tag = '') =>
  `<p>Paragraph ${i}${tag}: the council met on Tuesday to discuss the budget for the coming year, and members raised questions about road repairs and the library.</p>`;
const body3k = (tag = '') => Array.from({ length: 20 }, (_, i) => paragraph(i, i === 0 ? tag : '')).join('');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
const ms = (value: number) => `${value.toFixed(3)} ms`;

function server() {
  return new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: serverUrl, max: 1 }) }),
  });
}

async function main() {
  const name = `bench_history_${randomBytes(4).toString('hex')}`;
  const admin = server();
  await sql`create database ${sql.id(name)}`.execute(admin);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createDb({ connectionString: url.toString(), max: 4, applicationName: 'bench-history' });
  try {
    await migrateToLatest(db);
    log(`history benchmark (database ${name}; the machine is shared, figures vary run to run)`);
    await putOverhead(db);
    await importOverhead(db);
    await storage(db);
  } finally {
    await db.destroy();
    await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
    await admin.destroy();
  }
}

async function putOverhead(db: Db) {
  const article = await createArticle(
    db,
    {
      title: 'Bench',
      body: body3k(),
      tags: ['a'],
      category: null,
      section: null,
      thumbnail: null,
      image: null,
    },
    [],
    editor,
  );
  // Three variants, alternating edit by edit so all see the same machine: the write as it was before
  // revisions (the update, then the read that answers the PUT), the same in one transaction (what a write
  // that must be atomic pays anyway: a correction's event, the audit row), and editArticle with its revision.
  // And the revision write as it was before the compaction pass (history-previous-recorder.ts), on an
  // article of its own so each chain stays as its own code leaves it.
  const variants = ['bare', 'transaction', 'revisions', 'previous'] as const;
  const times = {
    bare: [] as number[],
    transaction: [] as number[],
    revisions: [] as number[],
    previous: [] as number[],
  };
  const previousArticle = await createArticle(
    db,
    {
      title: 'Bench previous',
      body: body3k(),
      tags: ['a'],
      category: null,
      section: null,
      thumbnail: null,
      image: null,
    },
    [],
    editor,
  );
  let i = 0;
  const edit = async (variant: (typeof variants)[number]) => {
    i += 1;
    const patch = { title: `Bench ${i}`, body: body3k(` (edit ${i})`) };
    const start = performance.now();
    if (variant === 'revisions') await editArticle(db, article.id, patch, undefined, editor);
    else if (variant === 'previous') await previousEdit(db, previousArticle.id, patch);
    else if (variant === 'transaction') {
      await db.transaction().execute(async (tx) => {
        await updateArticleColumns(tx, article.id, patch);
        await findArticleById(tx, article.id);
      });
    } else {
      await updateArticleColumns(db, article.id, patch);
      await findArticleById(db, article.id);
    }
    times[variant].push(performance.now() - start);
  };
  for (let w = 0; w < 40; w++) await edit(variants[w % 4] as (typeof variants)[number]); // warm-up
  for (const variant of variants) times[variant].length = 0;
  for (let e = 0; e < rounds * editsPerRound; e++) {
    // Rotating which goes first, so none always follows the same one.
    for (let k = 0; k < 4; k++) await edit(variants[(e + k) % 4] as (typeof variants)[number]);
  }
  const p = (variant: (typeof variants)[number], q: number) =>
    percentile(
      [...times[variant]].sort((a, b) => a - b),
      q,
    );
  const ratio = (a: number, b: number) => `${a / b >= 1 ? '+' : ''}${((a / b - 1) * 100).toFixed(1)}%`;
  log(`\nPUT /article/:id write (domain, ${times.revisions.length} edits each, 3 KB body, interleaved)`);
  for (const variant of variants)
    log(`  ${variant.padEnd(12)} p50 ${ms(p(variant, 50))}  p99 ${ms(p(variant, 99))}`);
  log(
    `  revisions against bare: p50 ${ratio(p('revisions', 50), p('bare', 50))}  p99 ${ratio(p('revisions', 99), p('bare', 99))}`,
  );
  log(
    `  revisions against the same transaction: p50 ${ratio(p('revisions', 50), p('transaction', 50))}  p99 ${ratio(p('revisions', 99), p('transaction', 99))}`,
  );
  log(
    `  previous against bare: p50 ${ratio(p('previous', 50), p('bare', 50))}  p99 ${ratio(p('previous', 99), p('bare', 99))}; revisions against previous: p50 ${ratio(p('revisions', 50), p('previous', 50))}  p99 ${ratio(p('revisions', 99), p('previous', 99))}`,
  );
  // The deferred half: the worker's pass turning the edits' previous revisions into deltas.
  const cpu = process.cpuUsage();
  const start = performance.now();
  const { revisions } = await compactArticleRevisions(db, { now: new Date(Date.now() + 3_600_000) });
  const used = process.cpuUsage(cpu);
  log(
    `  worker's compaction pass afterwards: ${revisions} revisions into deltas in ${ms(performance.now() - start)} wall, ${ms((used.user + used.system) / 1000)} CPU (${ms((used.user + used.system) / 1000 / Math.max(1, revisions))} per revision)`,
  );
}

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

async function importOverhead(db: Db) {
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

async function storage(db: Db) {
  let body = body3k();
  const article = await createArticle(
    db,
    {
      title: 'Council budget',
      body,
      tags: ['council'],
      category: 'Local',
      section: null,
      thumbnail: null,
      image: null,
    },
    [],
    editor,
  );
  for (let i = 1; i < 50; i++) {
    body = body.replace(`Paragraph ${i % 20}`, `Paragraph ${i % 20} (update ${i})`);
    await editArticle(db, article.id, { body }, undefined, editor);
  }
  await compactArticleRevisions(db); // the worker's pass
  const measured = await measureRevisionStorage(db, article.id);
  const naive =
    (
      await sql<{
        bytes: number;
      }>`select pg_column_size(to_jsonb(a.*))::int as bytes from articles a where id = ${article.id}`.execute(
        db,
      )
    ).rows[0]?.bytes ?? 0;
  log(`\nstorage: 50 edits of a ${body.length} B article (one place changed per edit)`);
  log(
    `  revisions: ${measured.revisions}; data ${measured.dataBytes} B (${(measured.dataBytes / body.length).toFixed(2)}x the article, goal <= 2x); whole rows ${measured.rowBytes} B (${(measured.rowBytes / body.length).toFixed(2)}x, with actor, times and tuple headers)`,
  );
  log(`  for scale: one full snapshot stored as it is ~${naive} B compressed; 50 of them ~${50 * naive} B`);
}

await main();
