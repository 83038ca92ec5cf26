import { randomBytes } from 'node:crypto';
import { createPreviewLink } from '@newsroom/domain';
import { sql } from 'kysely';
import { assertLoopback, type BenchRun, runBench, vsBaselineRow } from './client/harness';
import { measure } from './client/load';
import { bundleServers, type Server } from './client/processes';
import { createBenchDatabase, seedArticles } from './client/seed';
import { log } from './log';

// pnpm bench:preview — latency of GET /client/preview/:token (issue 29: p99 <= 50 ms on the 2-core box), on
// loopback only. Figures printed, not asserted. Seeds published articles over 5 sites, turns every tenth into a
// draft, makes one preview link per draft (every other one pinned), starts a bare Fastify hello world and the API
// (production bundles, LOG_LEVEL=warn) as separate processes on free ports, and reads in rotation: the previews
// (no key; never cached: one indexed lookup and the article per request), and as the reference the same number
// of /client/article/:slug reads with the response cache off (CLIENT_CACHE=off: a query per request, as a preview).

const articles = Number(process.env.BENCH_ARTICLES ?? 20_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const deadlineMs = 10 * 60_000;

assertLoopback(serverUrl, redisUrl);

async function main(bench: BenchRun) {
  log(
    `Preview benchmark: ${articles.toLocaleString('en')} articles over 5 sites, every tenth a draft with a link`,
  );
  const database = await createBenchDatabase(serverUrl);
  bench.onCleanUp(() => database.drop());
  const { db } = database;
  await seedArticles(db, articles, 3_000);
  const drafts = await sql<{ id: string; slug: string }>`
    update articles set status = 'draft', published_at = null
     where id in (select id from articles order by slug limit ${Math.floor(articles / 10)})
    returning id, slug`.execute(db);
  const tokens: string[] = [];
  for (const [index, draft] of drafts.rows.entries()) {
    tokens.push((await createPreviewLink(db, draft.id, { createdBy: null, pinned: index % 2 === 1 })).token);
  }
  const published = await db
    .selectFrom('articles')
    .select('slug')
    .where('status', '=', 'published')
    .orderBy('slug')
    .limit(tokens.length)
    .execute();
  const apiKey = randomBytes(24).toString('base64url');
  const entries = await bundleServers();
  const baseline = await bench.start(entries.baseline, { NODE_ENV: 'production', LOG_LEVEL: 'warn' });
  const api = await bench.start(entries.api, {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `bench-${randomBytes(4).toString('hex')}`,
    API_KEY: apiKey,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    CLIENT_CACHE: 'off',
  });
  const previewPaths = tokens.map((token) => `/api/v1/client/preview/${token}`);
  const runs: Array<{ name: string; server: Server; paths: string[]; headers: Record<string, string> }> = [
    { name: 'baseline: bare Fastify hello world', server: baseline, paths: ['/'], headers: {} },
    {
      name: `reference: /client/article/:slug, network key, response cache off, ${published.length} slugs`,
      server: api,
      paths: published.map(({ slug }) => `/api/v1/client/article/${slug}`),
      headers: { 'x-api-key': apiKey },
    },
    {
      name: `/client/preview/:token, no key, ${tokens.length} tokens (half pinned)`,
      server: api,
      paths: previewPaths,
      headers: {},
    },
  ];
  // Warm-up (JIT, pool, prepared statements), not measured.
  await measure({ name: 'warm-up', url: api.url, paths: previewPaths, seconds: 3, connections });
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
  log(`autocannon: ${connections} connections x ${seconds} s per row; target p99 <= 50 ms for the previews`);
}

await runBench(deadlineMs, main);
