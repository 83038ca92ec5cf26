import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { freePort } from '@newsroom/test-support';
import { measure, undiciAcceptEncoding } from './load';
import { bundleServers, cpuMicrosOf, type Server, startServer } from './processes';
import { type BenchDatabase, createBenchDatabase, seedArticles } from './seed';

// A/B of two API builds on one machine whose load moves: `AB_BASE_BUNDLE=<other checkout>/.bench/dist/api.mjs
// tsx bench/client/ab.ts`. Seeds one database (this checkout's migrations), starts the baseline, the other
// build's API and this checkout's API side by side (response cache on), then measures short interleaved runs,
// in a different order each round: hello world, page 1 and by-slug on A and on B, plain and (AB_GZIP=1) with
// undici's `Accept-Encoding`. Prints each round, the median ratios B/A, and each API's CPU time per request
// (its process's user + system time over the requests it answered: steadier than req/s on a loaded machine).
// Both APIs run the default configuration (LOG_LEVEL info unless AB_LOG_LEVEL says otherwise) and read the
// same rows, so only the code differs. Loopback only; drops the database.

const articles = Number(process.env.BENCH_ARTICLES ?? 50_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.AB_ROUNDS ?? 5);
const baseBundle = process.env.AB_BASE_BUNDLE;
if (!baseBundle) throw new Error('AB_BASE_BUNDLE: the other build (a checkout’s .bench/dist/api.mjs)');
const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = (line: string) => process.stderr.write(`${line}\n`);
const apiKey = randomBytes(24).toString('base64url');

const running: Server[] = [];
let database: BenchDatabase | undefined;
const deadline = setTimeout(() => void cleanUp().then(() => process.exit(2)), 20 * 60_000);
deadline.unref();
let cleaning: Promise<void> | undefined;
function cleanUp() {
  cleaning ??= (async () => {
    await Promise.allSettled(running.map((server) => server.stop()));
    await database?.drop().catch((error) => console.error('could not drop the bench database:', error));
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().then(() => process.exit(130)));
}

const logLevel = process.env.AB_LOG_LEVEL;
const withGzip = process.env.AB_GZIP === '1';

const env = (port: string, url: string, level = logLevel) => ({
  NODE_ENV: 'production',
  ...(level ? { LOG_LEVEL: level } : {}),
  PORT: port,
  HOST: '127.0.0.1',
  DATABASE_URL: url,
  REDIS_URL: redisUrl,
  QUEUE_PREFIX: `bench-${randomBytes(4).toString('hex')}`,
  API_KEY: apiKey,
  JWT_SECRET: randomBytes(32).toString('base64url'),
});

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

try {
  log(`Seeding ${articles.toLocaleString('en')} articles ...`);
  database = await createBenchDatabase(serverUrl);
  const seeded = await seedArticles(database.db, articles, 3_000);
  const bundles = await bundleServers();
  running.push(await startServer(bundles.baseline, env(String(await freePort()), database.url, 'warn')));
  running.push(await startServer(resolve(baseBundle), env(String(await freePort()), database.url)));
  running.push(await startServer(bundles.api, env(String(await freePort()), database.url)));
  const [hello, a, b] = running as [Server, Server, Server];
  const siteHeaders = { 'x-api-key': seeded.siteKey };
  const slugPaths = seeded.siteSlugsSample.map((slug) => `/api/v1/client/article/${slug}`);
  const gzipHeaders = { ...siteHeaders, 'accept-encoding': undiciAcceptEncoding };
  const targets: {
    name: string;
    url: string;
    paths: string[];
    headers: Record<string, string>;
    server?: Server;
  }[] = [
    { name: 'hello', url: hello.url, paths: ['/'], headers: siteHeaders },
    { name: 'A page 1', url: a.url, paths: ['/api/v1/client/posts'], headers: siteHeaders, server: a },
    { name: 'B page 1', url: b.url, paths: ['/api/v1/client/posts'], headers: siteHeaders, server: b },
    { name: 'A slug', url: a.url, paths: slugPaths, headers: siteHeaders, server: a },
    { name: 'B slug', url: b.url, paths: slugPaths, headers: siteHeaders, server: b },
    ...(withGzip
      ? [
          {
            name: 'A page 1 gz',
            url: a.url,
            paths: ['/api/v1/client/posts'],
            headers: gzipHeaders,
            server: a,
          },
          {
            name: 'B page 1 gz',
            url: b.url,
            paths: ['/api/v1/client/posts'],
            headers: gzipHeaders,
            server: b,
          },
          { name: 'A slug gz', url: a.url, paths: slugPaths, headers: gzipHeaders, server: a },
          { name: 'B slug gz', url: b.url, paths: slugPaths, headers: gzipHeaders, server: b },
        ]
      : []),
  ];
  for (const target of targets) {
    await measure({ ...target, seconds: 3, connections: 50 });
  }
  const results = new Map<string, number[]>(targets.map((target) => [target.name, []]));
  const cpuPerRequest = new Map<string, number[]>(targets.map((target) => [target.name, []]));
  for (let round = 0; round < rounds; round++) {
    // Rotate the order so no target always runs right after the same neighbour.
    const order = targets.map((_, i) => targets[(i + round) % targets.length] as (typeof targets)[number]);
    const line: string[] = [];
    for (const target of order) {
      const pid = target.server?.child.pid;
      const cpuBefore = pid ? cpuMicrosOf(pid) : 0;
      const result = await measure({ ...target, seconds, connections: 50 });
      if (pid) cpuPerRequest.get(target.name)?.push((cpuMicrosOf(pid) - cpuBefore) / result.requests);
      results.get(target.name)?.push(result.requestsPerSecond);
      line.push(`${target.name} ${Math.round(result.requestsPerSecond)}`);
    }
    log(`round ${round + 1}: ${line.join(', ')} req/s`);
  }
  const ratios = (bName: string, aName: string) =>
    (results.get(bName) as number[]).map(
      (value, i) => value / ((results.get(aName) as number[])[i] as number),
    );
  const helloRuns = results.get('hello') as number[];
  const vsHello = (name: string) =>
    median((results.get(name) as number[]).map((value, i) => value / (helloRuns[i] as number))).toFixed(3);
  log(
    `median req/s: ${targets.map((t) => `${t.name} ${Math.round(median(results.get(t.name) as number[]))}`).join(', ')}`,
  );
  log(
    `median vs hello: A page 1 ${vsHello('A page 1')}, B page 1 ${vsHello('B page 1')}, A slug ${vsHello('A slug')}, B slug ${vsHello('B slug')}`,
  );
  log(
    `median B/A (same round): page 1 ${median(ratios('B page 1', 'A page 1')).toFixed(3)}, slug ${median(ratios('B slug', 'A slug')).toFixed(3)}`,
  );
  if (withGzip) {
    log(
      `median B/A gzip (same round): page 1 ${median(ratios('B page 1 gz', 'A page 1 gz')).toFixed(3)}, slug ${median(ratios('B slug gz', 'A slug gz')).toFixed(3)}`,
    );
  }
  log(
    `median CPU µs per request: ${targets
      .filter((target) => target.server)
      .map((t) => `${t.name} ${median(cpuPerRequest.get(t.name) as number[]).toFixed(1)}`)
      .join(', ')}`,
  );
  const pageBytes = async (server: Server) =>
    (await (await fetch(`${server.url}/api/v1/client/posts`, { headers: siteHeaders })).arrayBuffer())
      .byteLength;
  log(`page 1 bytes: A ${await pageBytes(a)}, B ${await pageBytes(b)}`);
} finally {
  await cleanUp();
  clearTimeout(deadline);
}
