import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { encodeCursor } from '../apps/api/src/delivery/changes/change-cursor';
import { assertLoopback, type BenchRun, runBench } from './client/harness';
import { measure } from './client/load';
import { bundleServers } from './client/processes';
import { type BenchDatabase, createBenchDatabase, seedArticles } from './client/seed';
import { log } from './log';

// pnpm bench:changes — read throughput of GET /client/changes, on loopback only. Figures printed, not asserted.
// Seeds published articles across 5 sites (each seeding transaction leaves one outbox row per article), starts a
// bare Fastify hello world and the API (production bundles, default configuration, LOG_LEVEL=warn) as separate
// processes, and reads pages of 100 from 200 cursors spread over the outbox, in rotation: req/s and events/s
// beside the baseline and a listing reference (pages of 100 of /client/posts, response cache off, the same
// article JSON cache) measured in the same run. Bounded by a hard deadline.

const articles = Number(process.env.BENCH_ARTICLES ?? 20_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const pageSize = 100;
const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const deadlineMs = 10 * 60_000;

assertLoopback(serverUrl, redisUrl);

/** Cursors at every `pageSize`-th outbox row, the first 200: a page read from one is a full page. */
async function spreadCursors(db: BenchDatabase['db']): Promise<string[]> {
  const { rows } = await sql<{ xid: string; article_id: string }>`
    select xid::text as xid, article_id from (
      select xid, article_id, row_number() over (order by xid, article_id) as n from article_changes
    ) numbered where (n - 1) % ${pageSize} = 0 order by n limit 200`.execute(db);
  return rows.map((row) => encodeCursor({ xid: row.xid, articleId: row.article_id }));
}

async function eventsPerPage(url: string, key: string, paths: string[]): Promise<number> {
  let events = 0;
  for (const path of paths) {
    const response = await fetch(`${url}${path}`, { headers: { 'x-api-key': key } });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    events += ((await response.json()) as { data: unknown[] }).data.length;
  }
  return events / paths.length;
}

async function main(bench: BenchRun) {
  log(`Change feed benchmark: ${articles.toLocaleString('en')} articles over 5 sites, pages of ${pageSize}`);
  const database = await createBenchDatabase(serverUrl);
  bench.onCleanUp(() => database.drop());
  const seeded = await seedArticles(database.db, articles, 3_000);
  const cursors = await spreadCursors(database.db);
  const apiKey = randomBytes(24).toString('base64url');
  const entries = await bundleServers();

  const baselineServer = await bench.start(entries.baseline, {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: '3912',
    HOST: '127.0.0.1',
  });
  const api = await bench.start(entries.api, {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: '3911',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `bench-${randomBytes(4).toString('hex')}`,
    API_KEY: apiKey,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    // /changes never uses the response cache; off, the listing reference below reads Postgres like it does.
    CLIENT_CACHE: 'off',
  });

  const paths = cursors.map((cursor) => `/api/v1/client/changes?since=${cursor}&limit=${pageSize}`);
  const runs = [
    { name: 'baseline: bare Fastify hello world', server: baselineServer, paths: ['/'], key: '' },
    {
      name: 'reference: /client/posts?limit=100, 200 pages in rotation',
      server: api,
      paths: cursors.map((_, page) => `/api/v1/client/posts?limit=${pageSize}&page=${page + 1}`),
      key: apiKey,
    },
    { name: '/client/changes, network key', server: api, paths, key: apiKey },
    { name: '/client/changes, site key (1 site of 5)', server: api, paths, key: seeded.siteKey },
  ];
  // Warm-up (JIT, pool, article JSON cache), not measured.
  await measure({
    name: 'warm-up',
    url: api.url,
    paths,
    headers: { 'x-api-key': apiKey },
    seconds: 3,
    connections,
  });
  let baseline = 0;
  log('');
  log('| read | req/s | items/page | items/s | p50 | p99 | vs baseline |');
  log('|---|---:|---:|---:|---:|---:|---:|');
  for (const run of runs) {
    const headers: Record<string, string> = run.key ? { 'x-api-key': run.key } : {};
    const perPage = run.key ? await eventsPerPage(run.server.url, run.key, run.paths) : 0;
    const result = await measure({
      name: run.name,
      url: run.server.url,
      paths: run.paths,
      headers,
      seconds,
      connections,
    });
    if (!run.key) baseline = result.requestsPerSecond;
    const failed = result.non2xx + result.errors;
    log(
      `| ${run.name} | ${result.requestsPerSecond.toFixed(0)} | ${run.key ? perPage.toFixed(1) : ''} | ${
        run.key ? (result.requestsPerSecond * perPage).toFixed(0) : ''
      } | ${result.p50} ms | ${result.p99} ms | ${(result.requestsPerSecond / baseline).toFixed(2)}x |${
        failed ? ` (${failed} failed)` : ''
      }`,
    );
  }
  log('');
  log(`autocannon: ${connections} connections x ${seconds} s per row; ${cursors.length} cursors in rotation`);
}

await runBench(deadlineMs, main);
