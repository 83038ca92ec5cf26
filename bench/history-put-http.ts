/**
 * `pnpm bench:history`, part 1: the overhead of revisions and of the audit log on `PUT /api/v1/article/:id`
 * as a client sees it (see history-benchmark.ts). Four builds of the API on one database, one at a time through
 * `app.inject` (latency, not throughput), taking turns request by request so the machine's drift hits all alike:
 * - **none**: no audit routes hook and a database handle whose edit statement records no revision (its call
 *   rewritten away, statement-rewriting-driver.ts): the PUT's one UPDATE ... RETURNING, committing alone, which is
 *   all a PUT without revisions and audit needs;
 * - **audit**: the audit row, no revision;
 * - **revisions**: the revision, no audit row;
 * - **both**: the API as it runs: one statement, the update recording its revision, with the audit row in the same
 *   text (one round trip).
 * Each build edits articles of its own, so each revision chain is as its code leaves it. The builds with revisions
 * go through the same driver wrapper, rewriting nothing, so that its own cost is in every build.
 */
import { performance } from 'node:perf_hooks';
import { createRedisConnection } from '@newsroom/queue';
import { sql } from 'kysely';
import { buildApp } from '../apps/api/src/app';
import { createDb, type Db } from '../packages/domain/src/db/create-db';
import { body3k, ms } from './history-shared';
import { benchAdmin, benchApiConfig } from './in-process-api';
import { log } from './log';
import { percentile } from './percentile';
import { rewritingDriver, sameCostDriver } from './statement-rewriting-driver';

const requests = Number(process.env.BENCH_REQUESTS ?? 1_000);
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The edit statement's revision (article-edit.repository.ts): the written row the CTE keeps for it, and the call,
 * which here becomes one of a SQL function answering null (inlined: nothing runs), its parameters typed by it.
 */
const revisionParts: [string, string][] = [
  [', articles as "written"', ''],
  ['article_revision_record(w.written, w.host_sites,', 'bench_no_revision('],
];
export const noRevisionFunction = sql`create function bench_no_revision(text, text, text, text, text, timestamptz,
  integer) returns integer language sql immutable as 'select null::integer'`;

export async function putOverheadHttp(databaseUrl: string, db: Db) {
  await noRevisionFunction.execute(db);
  // Edit statements without their revision (revisionParts), and the same wrapper leaving them whole: both pay it.
  const bare = createDb({
    connectionString: databaseUrl,
    max: 4,
    wrapDriver: rewritingDriver(revisionParts),
  });
  const recording = createDb({
    connectionString: databaseUrl,
    max: 4,
    wrapDriver: sameCostDriver(revisionParts),
  });
  const redis = createRedisConnection(redisUrl, 'producer');
  const config = benchApiConfig(databaseUrl, redisUrl, `bench-history-${process.pid}`);
  const builds = {
    none: await buildApp({ config, db: bare, redis, auditRoutes: false }),
    audit: await buildApp({ config, db: bare, redis }),
    revisions: await buildApp({ config, db: recording, redis, auditRoutes: false }),
    both: await buildApp({ config, db: recording, redis }),
  };
  type Build = keyof typeof builds;
  const names = Object.keys(builds) as Build[];
  try {
    const { headers } = await benchAdmin(builds.both, db, 'bench-put@example.com');
    const articles = {} as Record<Build, string[]>;
    for (const name of names) {
      articles[name] = [];
      for (let i = 0; i < 20; i++) {
        const created = await builds[name].inject({
          method: 'POST',
          url: '/api/v1/article',
          headers,
          payload: { title: `Bench ${name} ${i}`, body: body3k() },
        });
        articles[name].push(created.json().id);
      }
    }
    const timings = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
      Build,
      number[]
    >;
    let n = 0;
    const put = async (name: Build, record: boolean) => {
      n += 1;
      const article = articles[name][n % 20] as string;
      const started = performance.now();
      const response = await builds[name].inject({
        method: 'PUT',
        url: `/api/v1/article/${article}`,
        headers,
        payload: { title: `Edited ${n}`, body: body3k(` (edit ${n})`) },
      });
      const elapsed = performance.now() - started;
      if (response.statusCode !== 200)
        throw new Error(`PUT answered ${response.statusCode}: ${response.body}`);
      if (record) timings[name].push(elapsed);
    };
    for (let i = 0; i < 100; i++) for (const name of names) await put(name, false); // warm-up
    // Request by request, the builds taking turns (rotating which goes first, so none always follows the same
    // one): a drift of the machine over a few hundred milliseconds hits all four alike. Blocks of 100 requests
    // per build let it land on one build: the same code measured +11 % and +21 % in two runs minutes apart.
    for (let i = 0; i < requests; i++) {
      for (let k = 0; k < names.length; k++) await put(names[(i + k) % names.length] as Build, true);
    }
    const figures = Object.fromEntries(
      names.map((name) => {
        const sorted = [...timings[name]].sort((a, b) => a - b);
        return [name, { p50: percentile(sorted, 50), p99: percentile(sorted, 99) }];
      }),
    ) as Record<Build, { p50: number; p99: number }>;
    const overhead = (a: Build, b: Build) =>
      (['p50', 'p99'] as const)
        .map((p) => `${p} ${((figures[a][p] / figures[b][p] - 1) * 100).toFixed(1)} %`)
        .join('  ');
    const revisions = await db
      .selectFrom('article_revisions')
      .select(db.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    log(
      `\nPUT /api/v1/article/:id (HTTP through app.inject, 3 KB body, ${requests} per build, builds taking turns request by request)`,
    );
    for (const name of names)
      log(`  ${name.padEnd(10)} p50 ${ms(figures[name].p50)}  p99 ${ms(figures[name].p99)}`);
    log(`  revisions: ${overhead('revisions', 'none')} (with the audit row: ${overhead('both', 'audit')})`);
    log(`  audit:     ${overhead('audit', 'none')} (with the revision: ${overhead('both', 'revisions')})`);
    log(`  both:      ${overhead('both', 'none')}   (${revisions.n} revision rows written)`);
  } finally {
    await Promise.allSettled(names.map((name) => builds[name].close()));
    await Promise.all([bare.destroy(), recording.destroy()]);
    redis.disconnect();
  }
}
