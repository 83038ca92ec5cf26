/**
 * `pnpm bench:history`, part 2: an import cycle's revision overhead (see history-benchmark.ts). Two builds of the
 * importer on one database, taking turns feed by feed: the import as it runs (each batch's one statement
 * inserting the articles, their site links and, through article_revision_record, their first revisions) and the
 * same statement without the revisions (statement-rewriting-driver.ts). Each cycle brings every publisher 3 new
 * items. Measured: wall time, this process's CPU (domain and driver) and the CPU of the database's backends.
 */
import { sql } from 'kysely';
import { createDb, type Db } from '../packages/domain/src/db/create-db';
import { importFeedItems } from '../packages/domain/src/imports/feed-import.service';
import type { ImportableFeedItem } from '../packages/domain/src/imports/imported-article';
import { body3k, ms } from './history-shared';
import { log } from './log';
import { backendPids, cpuMsSince, cpuSecondsOf } from './process-meters';
import { rewritingDriver, sameCostDriver } from './statement-rewriting-driver';

const hostSitesPerPublisher = Number(process.env.BENCH_HOST_SITES ?? 1);
const publishers = Number(process.env.BENCH_PUBLISHERS ?? 100);
const cyclesPerBuild = Number(process.env.BENCH_IMPORT_CYCLES ?? 5);
const newItems = 3;

/**
 * The import statement's revision (imported-article.repository.ts): the inserted row its CTE keeps for it, and the
 * call, which becomes one of a SQL function answering 1 (inlined: nothing runs), its parameters typed by it.
 */
const revisionParts: [string, string][] = [
  [', articles as "written"', ''],
  ['article_revision_record(ins.written, ', 'bench_no_first_revision('],
];
const noFirstRevisionFunction = sql`create function bench_no_first_revision(text[], text, text, text, text, text,
  timestamptz, integer) returns integer language sql immutable as 'select 1'`;

function feedItems(publisher: number, cycle: string): ImportableFeedItem[] {
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

type Build = 'with' | 'without';

interface Cost {
  wall: number;
  cpu: number;
  postgres: number;
}

export async function importOverhead(databaseUrl: string, db: Db) {
  await noFirstRevisionFunction.execute(db);
  const handles: Record<Build, Db> = {
    with: createDb({ connectionString: databaseUrl, max: 4, wrapDriver: sameCostDriver(revisionParts) }),
    without: createDb({ connectionString: databaseUrl, max: 4, wrapDriver: rewritingDriver(revisionParts) }),
  };
  try {
    const ids = await seedPublishers(db);
    const totals: Record<Build, Cost> = {
      with: { wall: 0, cpu: 0, postgres: 0 },
      without: { wall: 0, cpu: 0, postgres: 0 },
    };
    // Feed by feed, the two builds taking turns (which goes first alternating), so a drift of the machine or a
    // garbage collection hits both alike; each build's items are new to it. The backends' CPU is read around each
    // import (schedstat) from the pids of both pools, listed at each cycle's start (untimed).
    const cycle = async (n: number, record: boolean) => {
      const pids = await backendPids(db);
      const postgresMs = () => pids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0) * 1000;
      for (const [p, id] of ids.entries()) {
        const order: Build[] = (p + n) % 2 === 0 ? ['with', 'without'] : ['without', 'with'];
        for (const build of order) {
          const postgres = postgresMs();
          const cpu = process.cpuUsage();
          const start = performance.now();
          await importFeedItems(handles[build], id, {
            notModified: false,
            items: feedItems(p, `${n}-${build}`),
            etag: null,
            lastModified: null,
          });
          if (!record) continue;
          totals[build].wall += (performance.now() - start) / cyclesPerBuild;
          totals[build].cpu += cpuMsSince(cpu) / cyclesPerBuild;
          totals[build].postgres += (postgresMs() - postgres) / cyclesPerBuild;
        }
      }
    };
    await cycle(0, false); // warm-up: both pools' connections, plans, JIT
    for (let n = 1; n <= cyclesPerBuild; n++) await cycle(n, true);
    const revisions = await db
      .selectFrom('article_revisions')
      .select(db.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const percent = (a: number, b: number) => {
      const change = (a / b - 1) * 100;
      return `${change >= 0 ? '+' : ''}${change.toFixed(1)}%`;
    };
    const { with: recorded, without: baseline } = totals;
    log(
      `\nimport cycle: ${publishers} changed feeds x ${newItems} new ~3 KB items, ${hostSitesPerPublisher} host site(s) each; ${cyclesPerBuild} cycles, the builds taking turns feed by feed (${revisions.n} revisions in all)`,
    );
    for (const [name, cost] of [
      ['with revisions', recorded],
      ['without', baseline],
    ] as const)
      log(
        `  ${name.padEnd(15)} ${ms(cost.wall)} wall, CPU ${ms(cost.cpu)} this process + ${ms(cost.postgres)} Postgres = ${ms(cost.cpu + cost.postgres)}`,
      );
    log(
      `  overhead: wall ${percent(recorded.wall, baseline.wall)}, CPU ${percent(recorded.cpu + recorded.postgres, baseline.cpu + baseline.postgres)} (this process ${percent(recorded.cpu, baseline.cpu)}, Postgres ${percent(recorded.postgres, baseline.postgres)})`,
    );
    log(
      `  CPU per changed feed: ${ms(recorded.cpu / publishers)} this process, ${ms(recorded.postgres / publishers)} Postgres (without revisions: ${ms(baseline.cpu / publishers)}, ${ms(baseline.postgres / publishers)})`,
    );
  } finally {
    await Promise.all(Object.values(handles).map((handle) => handle.destroy()));
  }
}

/** BENCH_PUBLISHERS approved, auto-approving publishers, each with BENCH_HOST_SITES default host sites. */
async function seedPublishers(db: Db): Promise<string[]> {
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
  return ids;
}
