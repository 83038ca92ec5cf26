import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { apiEnvSchema } from '@newsroom/config';
import { churnConnectionsPerSite, churnReaderPaths, runChurn } from './churn-phase';
import { type DownloadResult, downloadWhileSampling } from './download';
import { runEdge } from './edge';
import { assertLoopback } from './harness';
import { type LoadResult, measure, undiciAcceptEncoding } from './load';
import { bundleServers, type Server, startServer } from './processes';
import { printReport } from './report';
import { captureSameBytes, ceilingArticlePaths as ceilingArticlePathsOf } from './same-bytes-bodies';
import { type BenchDatabase, createBenchDatabase, seedArticles } from './seed';

// pnpm bench:client — the client API under load, on loopback only. Figures are printed, never asserted.
// Seeds a fresh database, starts the API (and bare Fastify baselines: hello world, and the same bytes from
// memory) as separate processes, measures with autocannon, then reads while the newsroom writes (churn),
// stops everything and drops the database. Bounded by a hard deadline.
// The API runs with the default configuration (LOG_LEVEL info: one log line per request, appended to a log
// file in a scratch directory, whose warnings are printed at the end); the baselines without request logging (LOG_LEVEL=warn), as the physical limit.

// `pnpm bench:client edge`: only the edge (Varnish + purges, edge.ts), on a smaller seed by default.
const edgeMode = process.argv.slice(2).includes('edge');
const articles = Number(process.env.BENCH_ARTICLES ?? (edgeMode ? 5_000 : 50_000));
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const churnSeconds = Number(process.env.BENCH_CHURN_SECONDS ?? 20);
const connections = 50;
const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const apiPort = '3901';
const baselinePort = '3902';
const sameBytesPort = '3903';
const deadlineMs = 15 * 60_000;
// Node flags for the API processes only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile them.
const apiNodeArgs = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean);

assertLoopback(serverUrl, redisUrl);

const running: Server[] = [];
let database: BenchDatabase | undefined;
let cleaning: Promise<void> | undefined;
function cleanUp() {
  cleaning ??= (async () => {
    await Promise.allSettled(running.map((server) => server.stop()));
    const problems = await apiProblems().catch((error: unknown) => [`could not read the API log: ${error}`]);
    if (problems.length > 0)
      log(`API log, warnings and errors (last ${problems.length}):\n${problems.join('\n')}`);
    await database?.drop().catch((error) => console.error('could not drop the bench database:', error));
    rmSync(bodies, { recursive: true, force: true });
  })();
  return cleaning;
}
const deadline = setTimeout(() => {
  console.error(`Benchmark passed its ${deadlineMs / 60_000}-minute deadline; stopping.`);
  void cleanUp().then(() => process.exit(2));
}, deadlineMs);
deadline.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().then(() => process.exit(130)));
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const bodies = mkdtempSync(join(tmpdir(), 'bench-client-'));
/** The API processes' stdout (one JSON line per request and event); its warnings and errors are printed at the end. */
const apiLog = join(bodies, 'api.log');

/**
 * The API's log lines at warn or above (levels 40-60), the last `max` of them. Read line by line: a fast machine
 * writes more than one string can hold (512 MiB) in a run.
 */
async function apiProblems(max = 20): Promise<string[]> {
  if (!existsSync(apiLog)) return [];
  const problems: string[] = [];
  for await (const line of createInterface({
    input: createReadStream(apiLog),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    if (/"level":(4|5|6)0/.test(line)) {
      problems.push(line.slice(0, 400));
      if (problems.length > max) problems.shift();
    }
  }
  return problems;
}
const apiKey = randomBytes(24).toString('base64url');

/**
 * The client rate limits every API process runs with: production's defaults unless BENCH_RATE_LIMIT_CLIENT /
 * BENCH_RATE_LIMIT_CLIENT_ALL say otherwise (e.g. `999999999/1h` to measure what counting costs without
 * refusing anything). Printed with the figures.
 */
const defaultOf = (name: 'RATE_LIMIT_CLIENT' | 'RATE_LIMIT_CLIENT_ALL') =>
  String((apiEnvSchema.properties[name] as { default?: unknown }).default);
const rateLimits = {
  RATE_LIMIT_CLIENT: process.env.BENCH_RATE_LIMIT_CLIENT ?? defaultOf('RATE_LIMIT_CLIENT'),
  RATE_LIMIT_CLIENT_ALL: process.env.BENCH_RATE_LIMIT_CLIENT_ALL ?? defaultOf('RATE_LIMIT_CLIENT_ALL'),
};

/**
 * The API configurations measured: response cache on (the default); off (every read goes to Postgres, which
 * names each page's articles and their versions; unchanged articles' JSON is reused); and off with the article
 * JSON cache off too (every read also reads and serialises every article in full).
 */
const configurations = {
  on: { CLIENT_CACHE: 'on' },
  // The default but without request lines: what logging every request costs.
  quiet: { CLIENT_CACHE: 'on', LOG_LEVEL: 'warn' },
  off: { CLIENT_CACHE: 'off' },
  none: { CLIENT_CACHE: 'off', CLIENT_ARTICLE_CACHE_MB: '0' },
} as const;
type Configuration = keyof typeof configurations;
const labels: Record<Configuration, string> = {
  on: 'cache on',
  quiet: 'cache on, LOG_LEVEL=warn',
  off: 'cache off',
  none: 'no caches',
};

/** The API's environment: production defaults (LOG_LEVEL unset: info), plus what the benchmark must set. */
function apiEnv(configuration: Configuration, dbUrl: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    PORT: apiPort,
    HOST: '127.0.0.1',
    DATABASE_URL: dbUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `bench-${randomBytes(4).toString('hex')}`,
    API_KEY: apiKey,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    ...rateLimits,
    ...configurations[configuration],
  };
}

async function withServer<T>(server: Server, work: (server: Server) => Promise<T>): Promise<T> {
  running.push(server);
  try {
    return await work(server);
  } finally {
    await server.stop();
    running.splice(running.indexOf(server), 1);
  }
}

async function main() {
  const started = Date.now();
  log(`Seeding ${articles.toLocaleString('en')} articles across 5 sites ...`);
  database = await createBenchDatabase(serverUrl);
  const seeded = await seedArticles(database.db, articles, 3_000);
  log(`Seeded in ${((Date.now() - started) / 1000).toFixed(0)} s.`);

  const load = (name: string, url: string, paths: string[], headers: Record<string, string> = {}) =>
    measure({ name, url, paths, headers, seconds, connections }).then((result) => {
      log(
        `  ${name}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`,
      );
      return result;
    });

  const results: Record<string, LoadResult> = {};
  /** The same-bytes ceiling's environment (its body files), once againstSameBytes has captured them. */
  let sameBytesEnv: Record<string, string> = {};
  const bareEnv = (port: string) => ({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: port,
    HOST: '127.0.0.1',
  });
  const entries = await bundleServers();
  if (edgeMode) {
    await runEdge({
      db: database.db,
      databaseUrl: database.url,
      // BENCH_RELAY_WAKE=off: the purge relay on its interval alone, as before it was woken.
      relayWoken: process.env.BENCH_RELAY_WAKE !== 'off',
      seeded,
      apiEntry: entries.api,
      apiEnv: (port) => ({ ...apiEnv('on', database?.url as string), PORT: port }),
      seconds: churnSeconds,
      connections,
      running,
      log,
    });
    return;
  }
  log('Baseline (bare Fastify hello world):');
  results.baseline = await withServer(await startServer(entries.baseline, bareEnv(baselinePort)), (server) =>
    load('baseline', server.url, ['/']),
  );

  const siteHeaders = { 'x-api-key': seeded.siteKey };
  const slugPaths = seeded.siteSlugsSample.map((slug) => `/api/v1/client/article/${slug}`);
  let deepPage = 0;
  for (const cache of ['on', 'quiet', 'off', 'none'] as const) {
    log(
      `API with ${Object.entries(configurations[cache])
        .map(([name, value]) => `${name}=${value}`)
        .join(' ')}:`,
    );
    await withServer(
      await startServer(entries.api, apiEnv(cache, database.url), apiNodeArgs, apiLog),
      async (server) => {
        const first = await fetch(`${server.url}/api/v1/client/posts`, { headers: siteHeaders });
        const pageBody = Buffer.from(await first.arrayBuffer());
        const partner = ['/api/v1/client/partner-articles'];
        const { pages } = (
          JSON.parse(pageBody.toString('utf8')) as { meta: { pagination: { pages: number } } }
        ).meta.pagination;
        deepPage = Math.max(1, pages - 1);
        // Warm-up (JIT, pool, and for the cached run the first fill), not measured.
        await measure({
          name: 'warm-up',
          url: server.url,
          paths: ['/api/v1/client/posts', ...partner, ...slugPaths],
          headers: siteHeaders,
          seconds: 3,
          connections,
        });
        if (cache === 'on') {
          await againstSameBytes(server.url);
        } else {
          results[`posts1-${cache}`] = await load(
            `posts page 1 (${labels[cache]})`,
            server.url,
            ['/api/v1/client/posts'],
            siteHeaders,
          );
        }
        if (cache === 'quiet') {
          results['article-quiet'] = await load(
            `article by slug, ${slugPaths.length} rotating (${labels[cache]})`,
            server.url,
            slugPaths,
            siteHeaders,
          );
          return;
        }
        results[`postsDeep-${cache}`] = await load(
          `posts page ${deepPage} of ${pages} (${labels[cache]})`,
          server.url,
          [`/api/v1/client/posts?page=${deepPage}`],
          siteHeaders,
        );
        if (cache === 'none') {
          log('/client/all with the network key (every article):');
          try {
            download = await downloadWhileSampling(
              `${server.url}/api/v1/client/all`,
              { 'x-api-key': apiKey },
              server.child.pid as number,
            );
            log(
              `  ${download.articles} articles, ${(download.bytes / 1e6).toFixed(1)} MB in ${download.seconds.toFixed(2)} s`,
            );
          } catch (error) {
            download = (error as Error).message;
            log(`  failed: ${download}`);
          }
          return;
        }
        if (cache !== 'on') {
          results[`article-${cache}`] = await load(
            `article by slug, ${slugPaths.length} rotating (${labels[cache]})`,
            server.url,
            slugPaths,
            siteHeaders,
          );
        }
        // Cached: measured against its ceiling, interleaved (againstSameBytes).
        if (cache !== 'on') {
          results[`partner-${cache}`] = await load(
            `partner-articles (${labels[cache]})`,
            server.url,
            partner,
            siteHeaders,
          );
        }
      },
    );
  }

  log(`Churn: ${churnSeconds} s of reads on 5 sites while an editor publishes and the feed import writes:`);
  const metricsToken = randomBytes(24).toString('base64url');
  // Twice on one API process: plain requests (as before), then with the Accept-Encoding child sites send.
  const [churn, churnGzip] = await withServer(
    await startServer(
      entries.api,
      { ...apiEnv('on', database.url), METRICS_TOKEN: metricsToken },
      apiNodeArgs,
      apiLog,
    ),
    async (server) => {
      const churnWith = (acceptEncoding: string | null) =>
        runChurn({
          db: (database as BenchDatabase).db,
          apiUrl: server.url,
          metricsToken,
          seeded,
          seconds: churnSeconds,
          connections,
          acceptEncoding,
          log,
        });
      // Each churn right after its ceiling (the mix on the same bytes), so both see the same machine.
      results.ceilingMix = await churnMix('same bytes: the churn mix', '/page', '/article');
      const plain = await churnWith(null);
      results.ceilingMixGzip = await churnMix(
        'same bytes: the churn mix, gzip',
        '/page-gzip',
        '/article-gzip',
      );
      log(`Churn again, reads with Accept-Encoding: ${undiciAcceptEncoding}:`);
      return [plain, await churnWith(undiciAcceptEncoding)] as const;
    },
  );
  /**
   * The churn readers' mix on the same bytes (page 1 and 100 articles, alternately), read the way
   * churn-phase.ts reads it (one load generator per site, 10 connections each), without the writers: what a
   * bare server gives all churn readers at most. Its own ceiling process, started just before the churn.
   */
  async function churnMix(name: string, page: string, article: string): Promise<LoadResult> {
    return withServer(
      await startServer(entries.sameBytes, { ...bareEnv(sameBytesPort), ...sameBytesEnv }),
      async (ceiling) => {
        const paths = churnReaderPaths(page, ceilingArticlePathsOf(article, slugPaths));
        const perSite = churnConnectionsPerSite(connections, seeded.sites.length);
        await measure({ name: 'warm-up', url: ceiling.url, paths, seconds: 2, connections });
        const runs = await Promise.all(
          seeded.sites.map(() => measure({ name, url: ceiling.url, paths, seconds, connections: perSite })),
        );
        const together: LoadResult = {
          ...meanOf(runs),
          name,
          requestsPerSecond: runs.reduce((sum, run) => sum + run.requestsPerSecond, 0),
        };
        log(`  ${name}: ${Math.round(together.requestsPerSecond)} req/s, p99 ${together.p99} ms`);
        return together;
      },
    );
  }

  printReport({
    results,
    deepPage,
    download: download ?? 'not run',
    churn,
    churnGzip,
    articles,
    seconds,
    connections,
    rateLimits,
  });

  /**
   * The cached reads against the same-bytes ceiling, interleaved (ceiling, API, ceiling, API per route, twice)
   * so both see the same machine load; each figure is the mean of its two runs.
   */
  async function againstSameBytes(apiUrl: string) {
    const gzipHeaders = { ...siteHeaders, 'accept-encoding': undiciAcceptEncoding };
    const same = await captureSameBytes(apiUrl, siteHeaders, slugPaths, bodies);
    sameBytesEnv = same.env;
    const pageBody = same.page;
    const pageGzip = same.pageGzip;
    const ceilingArticlePaths = (prefix: string) => ceilingArticlePathsOf(prefix, slugPaths);
    log(
      `Same-bytes ceiling (bare Fastify, page ${pageBody.length} B (gzip ${pageGzip.length} B), partner page ${same.partner.length} B and the ${slugPaths.length} article bodies from memory), interleaved:`,
    );
    await withServer(
      await startServer(entries.sameBytes, { ...bareEnv(sameBytesPort), ...same.env }),
      async (ceiling) => {
        await measure({
          name: 'warm-up',
          url: ceiling.url,
          paths: [
            '/page',
            '/page-gzip',
            '/partner',
            ...ceilingArticlePaths('/article'),
            ...ceilingArticlePaths('/article-gzip'),
          ],
          seconds: 2,
          connections,
        });
        const rounds: Record<string, LoadResult[]> = {};
        const keep = (key: string, result: LoadResult) => {
          rounds[key] = [...(rounds[key] ?? []), result];
        };
        // Each read, then its ceiling: plain, then with undici's Accept-Encoding (gzip bytes on both sides).
        const pairs = [
          [
            'ceilingPage',
            'same bytes: page 1',
            ['/page'],
            'posts1-on',
            'posts page 1',
            ['/api/v1/client/posts'],
            siteHeaders,
          ],
          [
            'ceilingArticle',
            `same bytes: the ${slugPaths.length} articles`,
            ceilingArticlePaths('/article'),
            'article-on',
            `article by slug, ${slugPaths.length} rotating`,
            slugPaths,
            siteHeaders,
          ],
          [
            'ceilingPartner',
            'same bytes: partner-articles page 1',
            ['/partner'],
            'partner-on',
            'partner-articles page 1',
            ['/api/v1/client/partner-articles'],
            siteHeaders,
          ],
          [
            'ceilingPageGzip',
            'same bytes: page 1 gzip',
            ['/page-gzip'],
            'posts1-gzip',
            'posts page 1, gzip',
            ['/api/v1/client/posts'],
            gzipHeaders,
          ],
          [
            'ceilingArticleGzip',
            `same bytes: the ${slugPaths.length} articles gzip`,
            ceilingArticlePaths('/article-gzip'),
            'article-gzip',
            `article by slug, ${slugPaths.length} rotating, gzip`,
            slugPaths,
            gzipHeaders,
          ],
        ] as const;
        for (let round = 1; round <= 2; round++) {
          for (const [ceilingKey, ceilingName, ceilingPaths, apiKey, apiName, paths, headers] of pairs) {
            keep(ceilingKey, await load(`${ceilingName} (round ${round})`, ceiling.url, [...ceilingPaths]));
            keep(apiKey, await load(`${apiName} (cache on, round ${round})`, apiUrl, [...paths], headers));
          }
        }
        for (const [key, runs] of Object.entries(rounds)) results[key] = meanOf(runs);
      },
    );
  }
}

/** The /all download's figures, or why it failed. */
let download: DownloadResult | string | undefined;

/** The mean req/s of runs of one measurement, with the worst of their latencies and all their failures. */
function meanOf(runs: LoadResult[]): LoadResult {
  const first = runs[0] as LoadResult;
  return {
    name: first.name.replace(/, round 1\)/, ')').replace(/ \(round 1\)/, ''),
    requestsPerSecond: runs.reduce((sum, run) => sum + run.requestsPerSecond, 0) / runs.length,
    requests: runs.reduce((sum, run) => sum + run.requests, 0),
    p50: Math.max(...runs.map((run) => run.p50)),
    p99: Math.max(...runs.map((run) => run.p99)),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanUp();
  clearTimeout(deadline);
}
