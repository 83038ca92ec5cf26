/**
 * Feed import benchmark (`pnpm bench:import`): figures printed, nothing asserted.
 * Loopback only: a local feed server, local Postgres and Redis. Bounded: every phase has a deadline.
 *
 * 1. 500 publishers x 50 items (~3.3 KB each, ETag on every feed): one full cycle through the real
 *    queue and a worker process started like production (apps/worker/src/main.ts, its own config
 *    from the environment): items/s, wall time, worker peak RSS.
 * 2. The same cycle again with unchanged feeds: every fetch is a 304, nothing is inserted.
 * 3. One publisher with a ~15 MiB feed: worker peak RSS.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createDb, type Db } from '@newsroom/domain';
import { migrateToLatest } from '@newsroom/migrations';
import { createFeedImportQueue, createRedisConnection, type FeedImportQueue } from '@newsroom/queue';
import { type FeedServer, startFeedServer } from '@newsroom/test-support/feed-server';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { generateFeed } from './feed-generator';

const root = resolve(import.meta.dirname, '..');
const serverUrl = process.env.BENCH_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const publishers = Number(process.env.BENCH_PUBLISHERS ?? 500);
const itemsPerFeed = Number(process.env.BENCH_ITEMS ?? 50);
const concurrency = process.env.BENCH_CONCURRENCY ?? '8';
/** How the worker runs: `tsx` (as the Dockerfile starts it today) or `bundle` (one esbuild bundle, plain node). */
const workerBuild = process.env.BENCH_WORKER_BUILD === 'bundle' ? 'bundle' : 'tsx';
const workerCount = Number(process.env.BENCH_WORKERS ?? 1);
const phaseDeadlineMs = 5 * 60_000;

const log = (line: string) => process.stdout.write(`${line}\n`);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function admin() {
  return new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: serverUrl, max: 1 }) }),
  });
}

async function createBenchDatabase(name: string): Promise<string> {
  const server = admin();
  await sql`create database ${sql.id(name)}`.execute(server);
  await server.destroy();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 1 }) }),
  });
  await migrateToLatest(db);
  await db.destroy();
  return url.toString();
}

async function dropBenchDatabase(name: string) {
  const server = admin();
  await sql`drop database if exists ${sql.id(name)} with (force)`.execute(server);
  await server.destroy();
}

/**
 * Peak resident memory of the worker processes since start(), the largest of them (Linux: VmHWM,
 * reset through clear_refs; where that is not allowed, samples of VmRSS every 20 ms).
 */
class PeakRss {
  private sampled = 0;
  private timer: NodeJS.Timeout | undefined;
  private canReset = true;
  constructor(private readonly pids: number[]) {}
  private field(pid: number, name: string): number {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${name}:\\s+(\\d+) kB`));
    return match ? Number(match[1]) * 1024 : 0;
  }
  private largest(name: string) {
    return Math.max(...this.pids.map((pid) => this.field(pid, name)));
  }
  start() {
    for (const pid of this.pids) {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        this.canReset = false;
      }
    }
    this.sampled = this.largest('VmRSS');
    this.timer = setInterval(() => {
      this.sampled = Math.max(this.sampled, this.largest('VmRSS'));
    }, 20);
  }
  now() {
    return this.largest('VmRSS');
  }
  stop(): number {
    clearInterval(this.timer);
    return this.canReset ? Math.max(this.largest('VmHWM'), this.sampled) : this.sampled;
  }
}

/** The worker's command line: main.ts through tsx, or an esbuild bundle of it run by plain node. */
function workerCommand(): string[] {
  const main = resolve(root, 'apps/worker/src/main.ts');
  if (workerBuild === 'tsx') return ['--import', 'tsx', main];
  const outfile = resolve(root, '.bench/worker/main.mjs');
  execFileSync(
    resolve(root, 'node_modules/.bin/esbuild'),
    [
      main,
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--target=node20',
      `--outfile=${outfile}`,
      '--external:pg-native',
      '--banner:js=import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
      '--log-level=warning',
    ],
    { cwd: root, stdio: 'inherit' },
  );
  return [outfile];
}

async function waitUntil(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + phaseDeadlineMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function queueIdle(queue: FeedImportQueue): Promise<boolean> {
  const counts = await queue.getJobCounts('waiting', 'active', 'prioritized');
  const delayed = (await queue.getJobs(['delayed'])).filter((job) => !job.repeatJobKey);
  return Object.values(counts).every((n) => n === 0) && delayed.length === 0;
}

async function articleCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('articles')
    .select(({ fn }) => fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** SIGTERM (graceful close, as in production), SIGKILL after 10 s. */
async function stopWorker(worker: ChildProcess) {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = new Promise((done) => worker.once('exit', done));
  worker.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
}

/** One cycle as the scheduler runs it: a fan-out job, then every fetch job, until the queue is idle. */
async function runCycle(queue: FeedImportQueue, db: Db, rss: PeakRss) {
  // Completed jobs of the last cycle hold this hour's job ids; removing them stands in for the next hour.
  await queue.clean(0, 0, 'completed');
  const before = await articleCount(db);
  rss.start();
  const started = performance.now();
  await queue.add('fan-out-feeds', {});
  await new Promise((r) => setTimeout(r, 50));
  await waitUntil(() => queueIdle(queue), 'the cycle to finish');
  const wallMs = performance.now() - started;
  const peak = rss.stop();
  const failed = await queue.getJobCountByTypes('failed');
  return { wallMs, inserted: (await articleCount(db)) - before, peak, failed };
}

/** 500 publishers with their feeds (50 items each, ETag on every one); returns the bytes served per cycle. */
async function addPublishers(db: Db, server: FeedServer): Promise<number> {
  let feedBytes = 0;
  for (let p = 0; p < publishers; p++) {
    const body = Buffer.from(generateFeed(p, itemsPerFeed));
    feedBytes += body.length;
    server.route(`/feeds/${p}.rss`, { body, etag: `"feed-${p}-v1"` });
  }
  await db
    .insertInto('publishers')
    .values(
      Array.from({ length: publishers }, (_, p) => ({
        name: `Publisher ${p}`,
        feed_url: server.url(`/feeds/${p}.rss`),
        approved: true,
        auto_approve: p % 2 === 0,
        default_tags: ['Bench'],
      })),
    )
    .execute();
  return feedBytes;
}

async function main() {
  const tag = randomBytes(4).toString('hex');
  const dbName = `newsroom_bench_${tag}`;
  const prefix = `bench-${tag}`;
  const cleanups: (() => Promise<unknown>)[] = [];
  const workers: ChildProcess[] = [];
  const watchdog = setTimeout(() => {
    process.stderr.write('benchmark deadline reached\n');
    for (const worker of workers) worker.kill('SIGKILL');
    process.exit(2);
  }, 4 * phaseDeadlineMs).unref();

  try {
    log(
      `Feed import benchmark: ${publishers} publishers x ${itemsPerFeed} items, worker concurrency ${concurrency}`,
    );
    const databaseUrl = await createBenchDatabase(dbName);
    cleanups.push(() => dropBenchDatabase(dbName));
    const db = createDb({ connectionString: databaseUrl, max: 2, applicationName: 'newsroom-bench' });
    cleanups.push(() => db.destroy());
    const connection = createRedisConnection(redisUrl, 'worker');
    const queue = createFeedImportQueue({ connection, prefix });
    cleanups.push(async () => {
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    });

    const server: FeedServer = await startFeedServer();
    cleanups.push(() => server.close());

    // Started like production: node running the worker's main.ts, configured by its environment.
    // BENCH_WORKER_NODE_ARGS: extra node flags for the worker, e.g. --cpu-prof to profile it.
    const nodeArgs = process.env.BENCH_WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const command = workerCommand();
    for (let w = 0; w < workerCount; w++) {
      workers.push(
        spawn(process.execPath, [...nodeArgs, ...command], {
          cwd: root,
          stdio: ['ignore', 'ignore', 'inherit'],
          env: {
            PATH: process.env.PATH,
            NODE_ENV: 'production',
            LOG_LEVEL: 'warn',
            DATABASE_URL: databaseUrl,
            REDIS_URL: redisUrl,
            QUEUE_PREFIX: prefix,
            FEED_ALLOW_PRIVATE_ADDRESSES: 'true',
            WORKER_CONCURRENCY: concurrency,
            // The benchmark starts its cycles itself; the scheduler only fires once, at the first boot.
            IMPORT_SCHEDULE: '0 0 1 1 *',
          },
        }),
      );
    }
    const rss = new PeakRss(workers.map((worker) => worker.pid as number));
    // A worker is up once the scheduler exists; its immediate first fan-out finds no publishers yet.
    await waitUntil(async () => (await queue.getJobSchedulers()).length === 1, 'the worker to start');
    await waitUntil(() => queueIdle(queue), 'the boot-time fan-out');
    await new Promise((r) => setTimeout(r, 2_000));
    log(
      `Worker: ${workerCount} process(es), ${workerBuild === 'tsx' ? 'main.ts through tsx (as the Dockerfile runs it)' : 'an esbuild bundle run by plain node'}; idle RSS ${mib(rss.now())}`,
    );

    const feedBytes = await addPublishers(db, server);
    log(`Feeds: ${mib(feedBytes)} in total, ${mib(feedBytes / publishers)} per feed`);

    const first = await runCycle(queue, db, rss);
    log('');
    log(
      `Cycle 1 (new items):      ${first.inserted} inserted in ${(first.wallMs / 1000).toFixed(2)} s = ${Math.round((first.inserted / first.wallMs) * 1000)} items/s; worker peak RSS ${mib(first.peak)}; failed jobs ${first.failed}`,
    );

    const second = await runCycle(queue, db, rss);
    const conditional = server.requests.filter((r) => r.status === 304).length;
    log(
      `Cycle 2 (unchanged, 304): ${second.inserted} inserted in ${(second.wallMs / 1000).toFixed(2)} s (${(first.wallMs / second.wallMs).toFixed(1)}x faster); ${conditional} answers were 304; worker peak RSS ${mib(second.peak)}`,
    );

    // Just under the 15 MiB cap, so it is imported rather than refused.
    const big = generateFeed(publishers, 3_900, 6);
    server.route('/feeds/big.rss', { body: Buffer.from(big), etag: '"big-v1"' });
    const { id: bigId } = await db
      .insertInto('publishers')
      .values({
        name: 'Big feed',
        feed_url: server.url('/feeds/big.rss'),
        approved: true,
        auto_approve: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    rss.start();
    const bigStarted = performance.now();
    const job = await queue.add('fetch-feed', { publisherId: bigId, trigger: 'manual' });
    await waitUntil(async () => ['completed', 'failed'].includes(await job.getState()), 'the big feed');
    const bigPeak = rss.stop();
    const bigJob = await queue.getJob(job.id as string);
    log(
      `Big feed (${mib(big.length)}, 3,900 items): ${JSON.stringify(bigJob?.returnvalue ?? bigJob?.failedReason)} in ${((performance.now() - bigStarted) / 1000).toFixed(2)} s; worker peak RSS ${mib(bigPeak)}`,
    );

    log('');
    log('Targets: >= 2,500 items/s; unchanged cycle >= 10x faster; worker peak RSS <= 200 MB.');
  } finally {
    clearTimeout(watchdog);
    await Promise.all(workers.map(stopWorker));
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  }
}

await main();
