/**
 * Article revisions benchmark (`pnpm bench:history`): figures printed, nothing asserted. Local Postgres only,
 * in a database of its own (created, migrated, dropped).
 *
 * 1. `PUT /api/v1/article/:id` through the API, four builds alternating: without revisions and audit, with
 *    either, with both (history-put-http.ts): p50/p99 of each and the overheads.
 * 1b. `PUT /article/:id`'s write in the domain, with revisions (editArticle: one transaction, the update, the
 *    full read with the newest revisions' authors, the new revision inserted whole and the article queued for
 *    the worker's compaction pass, whose cost per revision is printed after)
 *    against the same write without them (the update and the read as they were before revisions, from the
 *    same repository functions), alternating in rounds so both see the same machine. p50/p99 and the ratio.
 *    Domain level on purpose: the HTTP layer costs both the same, so this is the larger relative overhead.
 * 2. An import cycle: BENCH_PUBLISHERS (default 100) changed feeds of 3 new ~3 KB items each, BENCH_HOST_SITES
 *    (default 1) default host sites per publisher, through importFeedItems, with the revisions and without them
 *    (the same statement, its revision call rewritten away), cycle by cycle in turns (history-import-overhead.ts):
 *    wall time and CPU, this process's and the database backends', and the overheads.
 * 3. Storage: 50 edits of a 3 KB article, one place changed each time (as an editor corrects a story),
 *    after the worker's compaction pass (compactArticleRevisions) turned all but the newest into deltas:
 *    bytes of revision data after Postgres' compression (pg_column_size) and of whole rows, against the
 *    article's body size (goal: data <= 2x the article).
 */
import { randomBytes } from 'node:crypto';
import { migrateToLatest } from '@newsroom/migrations';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { findArticleById, updateArticleColumns } from '../packages/domain/src/articles/article.repository';
import { createArticle, editArticle } from '../packages/domain/src/articles/article.service';
import { measureRevisionStorage } from '../packages/domain/src/articles/revisions/article-revision.repository';
import { compactArticleRevisions } from '../packages/domain/src/articles/revisions/revision-compaction';
import type { RevisionWrite } from '../packages/domain/src/articles/revisions/revision-write';
import { createDb, type Db } from '../packages/domain/src/db/create-db';
import { importOverhead } from './history-import-overhead';
import { previousEdit } from './history-previous-recorder';
import { putOverheadHttp } from './history-put-http';
import { body3k, ms } from './history-shared';
import { log } from './log';

const serverUrl = process.env.BENCH_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const editsPerRound = Number(process.env.BENCH_EDITS ?? 100);

const editor: RevisionWrite = {
  actor: { kind: 'user', id: 'bench-user', label: 'bench@example.com' },
  source: 'editor',
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

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
    await putOverheadHttp(url.toString(), db);
    await putOverhead(db);
    await importOverhead(url.toString(), db);
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
