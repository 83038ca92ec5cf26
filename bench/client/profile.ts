import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { costsOf, formatCosts, formatDifference, type Window, type WindowCost } from './cpu-profile';
import { type LoadOptions, measure, undiciAcceptEncoding } from './load';
import { bundleServers, cpuMicrosOf, type Server, startServer } from './processes';
import { captureSameBytes, ceilingArticlePaths } from './same-bytes-bodies';
import { type BenchDatabase, createBenchDatabase, seedArticles } from './seed';

// Where a cached small read's time goes: `pnpm exec tsx bench/client/profile.ts`. Seeds a database, starts
// the API (production bundle, default configuration: one access-log line per request, to a file) and the
// same-bytes ceiling (bare Fastify, the same bodies from memory) under `node --cpu-prof`, loads each phase in
// turn with autocannon (50 connections), stops them, and prints each phase's top functions by self time,
// in µs per request. CPU profiles' shares stay meaningful on a loaded machine; req/s do not.
// PROFILE_SECONDS (default 10), BENCH_ARTICLES (default 10,000), PROFILE_TOP (default 25),
// PROFILE_KEEP=1 keeps the .cpuprofile files (their directory is printed), PROFILE_API_ENTRY profiles another
// build of the API (e.g. `<checkout>/.bench/dist/api.mjs`, built against the same node_modules).

const articles = Number(process.env.BENCH_ARTICLES ?? 10_000);
const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
const top = Number(process.env.PROFILE_TOP ?? 25);
const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = (line: string) => process.stderr.write(`${line}\n`);
const scratch = mkdtempSync(join(tmpdir(), 'bench-profile-'));
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

const running: Server[] = [];
let database: BenchDatabase | undefined;

async function profiled(
  entry: string,
  env: Record<string, string>,
  name: string,
  phases: (server: Server) => Promise<Window[]>,
) {
  const dir = join(scratch, name);
  const server = await startServer(
    entry,
    env,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    join(scratch, `${name}.log`),
  );
  running.push(server);
  const windows = await phases(server);
  await server.stop();
  running.splice(running.indexOf(server), 1);
  // The main thread's profile is the first (thread 0); the password hasher's worker writes another.
  const [file] = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort();
  if (!file) throw new Error(`${name}: no CPU profile written`);
  const costs = costsOf(join(dir, file), windows);
  for (const cost of costs) log(`\n${formatCosts(cost, top)}`);
  return costs;
}

async function phase(
  server: Server,
  name: string,
  options: Omit<LoadOptions, 'name' | 'seconds' | 'connections'>,
) {
  const pid = server.child.pid as number;
  const cpuBefore = cpuMicrosOf(pid);
  const startMicros = monotonicMicros();
  const result = await measure({ ...options, name, seconds, connections: 50 });
  const endMicros = monotonicMicros();
  // The process's CPU time (all threads, user + system; /proc, 10 ms ticks): unlike the samples' wall time,
  // not inflated by time the process waited for a core.
  const cpu = (cpuMicrosOf(pid) - cpuBefore) / result.requests;
  log(
    `  ${name}: ${Math.round(result.requestsPerSecond)} req/s (${result.non2xx} non-2xx), ` +
      `${cpu.toFixed(1)} µs of process CPU per request`,
  );
  return { name, startMicros, endMicros, requests: result.requests };
}

try {
  log(`Seeding ${articles.toLocaleString('en')} articles ...`);
  database = await createBenchDatabase(serverUrl);
  const seeded = await seedArticles(database.db, articles, 3_000);
  const entries = await bundleServers();
  const siteHeaders = { 'x-api-key': seeded.siteKey };
  const gzipHeaders = { ...siteHeaders, 'accept-encoding': undiciAcceptEncoding };
  const slugPaths = seeded.siteSlugsSample.map((slug) => `/api/v1/client/article/${slug}`);
  const apiEnv = {
    NODE_ENV: 'production',
    PORT: '3911',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `bench-${randomBytes(4).toString('hex')}`,
    API_KEY: randomBytes(24).toString('base64url'),
    JWT_SECRET: randomBytes(32).toString('base64url'),
    SHUTDOWN_DRAIN_MS: '0',
    ...(process.env.PROFILE_LOG_LEVEL ? { LOG_LEVEL: process.env.PROFILE_LOG_LEVEL } : {}),
  };
  let ceilingEnv: Record<string, string> = {};
  log('API (default configuration), under --cpu-prof:');
  // PROFILE_API_ENTRY: another build of the API to profile (e.g. main's, for a before/after).
  const apiEntry = process.env.PROFILE_API_ENTRY ?? entries.api;
  const api = await profiled(apiEntry, apiEnv, 'api', async (api) => {
    ceilingEnv = (await captureSameBytes(api.url, siteHeaders, slugPaths, scratch)).env;
    const partner = ['/api/v1/client/partner-articles'];
    await measure({
      name: 'warm-up',
      url: api.url,
      paths: [...slugPaths, ...partner],
      headers: siteHeaders,
      seconds: 3,
      connections: 50,
    });
    return [
      await phase(api, `API by slug, ${slugPaths.length} rotating`, {
        url: api.url,
        paths: slugPaths,
        headers: siteHeaders,
      }),
      await phase(api, 'API by slug, gzip', { url: api.url, paths: slugPaths, headers: gzipHeaders }),
      await phase(api, 'API partner-articles page 1', { url: api.url, paths: partner, headers: siteHeaders }),
    ];
  });
  log('\nSame-bytes ceiling (bare Fastify, LOG_LEVEL=warn), under --cpu-prof:');
  const ceilingServerEnv = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: '3912',
    HOST: '127.0.0.1',
    ...ceilingEnv,
  };
  const ceiling = await profiled(entries.sameBytes, ceilingServerEnv, 'ceiling', async (ceiling) => {
    const plain = ceilingArticlePaths('/article', slugPaths);
    const gzip = ceilingArticlePaths('/article-gzip', slugPaths);
    await measure({
      name: 'warm-up',
      url: ceiling.url,
      paths: [...plain, ...gzip],
      seconds: 2,
      connections: 50,
    });
    return [
      await phase(ceiling, 'ceiling: the same article bodies', { url: ceiling.url, paths: plain }),
      await phase(ceiling, 'ceiling: the same article bodies, gzip', { url: ceiling.url, paths: gzip }),
      await phase(ceiling, 'ceiling: partner-articles page 1', { url: ceiling.url, paths: ['/partner'] }),
    ];
  });
  log('\nWhat the API adds, per request, over the same bytes from a bare server (self time):');
  for (const [n, cost] of api.entries()) {
    log(`\n${formatDifference(cost, ceiling[n] as WindowCost, top)}`);
  }
} finally {
  await Promise.allSettled(running.map((server) => server.stop()));
  await database?.drop().catch((error) => console.error('could not drop the bench database:', error));
  if (process.env.PROFILE_KEEP === '1') log(`profiles kept in ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}
