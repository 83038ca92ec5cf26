import { randomBytes } from 'node:crypto';
import { createDb } from '@newsroom/domain';
import { startStreamingCluster } from '@newsroom/test-support/streaming-replica';
import { sql } from 'kysely';
import { assertLoopback, type BenchRun, runBench, vsBaselineRow } from './client/harness';
import { measure } from './client/load';
import { bundleServers } from './client/processes';
import { seedArticles } from './client/seed';
import { log } from './log';

// pnpm bench:replica — what reading the client content from a streaming replica costs a cache miss
// (docs/deployment.md#a-read-replica-for-client-reads), on loopback only. Figures printed, not asserted.
// Starts a primary and a streaming replica of its own (test-support's streaming-replica.ts, no apply delay),
// seeds published articles on the primary, and runs two API processes (production bundles, response cache off:
// every request is a miss, a query): one on the primary alone, one with DATABASE_REPLICA_URL, where each read
// first reads the primary's WAL position (shared by concurrent reads) and checks the replica has replayed it.
// Each reads /client/article/:slug in rotation; a bare Fastify hello world is the baseline of the same run.

const articles = Number(process.env.BENCH_ARTICLES ?? 5_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const deadlineMs = 10 * 60_000;
assertLoopback(redisUrl);

async function main(bench: BenchRun) {
  log(`Replica benchmark: ${articles.toLocaleString('en')} articles, response cache off (every read a miss)`);
  const cluster = await startStreamingCluster({ applyDelayMs: 0 });
  bench.onCleanUp(() => cluster.stop());
  const db = createDb({ connectionString: cluster.primaryUrl, max: 4 });
  const replica = createDb({ connectionString: cluster.replicaUrl, max: 1 });
  let slugs: string[];
  try {
    slugs = (await seedArticles(db, articles, 3_000)).siteSlugsSample;
    // Caught up before measuring (bounded: the deadline above).
    const count = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from articles`.execute(replica)).rows[0]?.n;
    while ((await count()) !== articles) await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    await Promise.all([db.destroy(), replica.destroy()]);
  }
  const apiKey = randomBytes(24).toString('base64url');
  const entries = await bundleServers();
  const apiEnv = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: cluster.primaryUrl,
    REDIS_URL: redisUrl,
    API_KEY: apiKey,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    CLIENT_CACHE: 'off',
    DATABASE_POOL_SIZE: '10',
  };
  const baseline = await bench.start(entries.baseline, { NODE_ENV: 'production', LOG_LEVEL: 'warn' });
  const primaryOnly = await bench.start(entries.api, {
    ...apiEnv,
    QUEUE_PREFIX: `bench-${randomBytes(4).toString('hex')}`,
  });
  const withReplica = await bench.start(entries.api, {
    ...apiEnv,
    QUEUE_PREFIX: `bench-${randomBytes(4).toString('hex')}`,
    DATABASE_REPLICA_URL: cluster.replicaUrl,
  });
  const paths = slugs.map((slug) => `/api/v1/client/article/${slug}`);
  const headers = { 'x-api-key': apiKey };
  const runs = [
    { name: 'baseline: bare Fastify hello world', server: baseline, paths: ['/'], headers: {} },
    {
      name: `/client/article/:slug on the primary alone (${paths.length} slugs)`,
      server: primaryOnly,
      paths,
      headers,
    },
    {
      name: '/client/article/:slug on the replica (fenced at the primary WAL position)',
      server: withReplica,
      paths,
      headers,
    },
  ];
  for (const server of [primaryOnly, withReplica]) {
    await measure({ name: 'warm-up', url: server.url, paths, headers, seconds: 3, connections });
  }
  let base = 0;
  log('');
  log('| read | req/s | p50 | p99 | vs baseline |');
  log('|---|---:|---:|---:|---:|');
  for (const run of runs) {
    const result = await measure({ ...run, url: run.server.url, seconds, connections });
    if (run.server === baseline) base = result.requestsPerSecond;
    log(vsBaselineRow(run.name, result, base));
  }
  log('');
  log(
    `autocannon: ${connections} connections x ${seconds} s per row; primary and replica on this one machine`,
  );
}

await runBench(deadlineMs, main);
