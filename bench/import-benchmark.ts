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
import { type ChildProcess, spawn } from 'node:child_process';
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

/** Peak resident memory of a process since the last reset (Linux: VmHWM, reset through clear_refs). */
class PeakRss {
  private sampled = 0;
  private timer: NodeJS.Timeout | undefined;
  private canReset = true;
  constructor(private readonly pid: number) {}
  private field(name: string): number {
    const match = readFileSync(`/proc/${this.pid}/status`, 'utf8').match(new RegExp(`${name}:\\s+(\\d+) kB`));
    return match ? Number(match[1]) * 1024 : 0;
  }
  start() {
    try {
      writeFileSync(`/proc/${this.pid}/clear_refs`, '5');
    } catch {
      this.canReset = false;
    }
    this.sampled = this.field('VmRSS');
    this.timer = setInterval(() => {
      this.sampled = Math.max(this.sampled, this.field('VmRSS'));
    }, 20);
  }
  stop(): number {
    clearInterval(this.timer);
    // Without a reset, VmHWM covers the whole life of the process: use the samples instead.
    return this.canReset ? Math.max(this.field('VmHWM'), this.sampled) : this.sampled;
  }
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

async function main() {
  const tag = randomBytes(4).toString('hex');
  const dbName = `newsroom_bench_${tag}`;
  const prefix = `bench-${tag}`;
  const cleanups: (() => Promise<unknown>)[] = [];
  let worker: ChildProcess | undefined;
  const watchdog = setTimeout(() => {
    process.stderr.write('benchmark deadline reached\n');
    worker?.kill('SIGKILL');
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
    log(`Feeds: ${mib(feedBytes)} in total, ${mib(feedBytes / publishers)} per feed`);

    // Started like production: node running the worker's main.ts with its configuration in the environment.
    worker = spawn(process.execPath, ['--import', 'tsx', resolve(root, 'apps/worker/src/main.ts')], {
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
        // The benchmark triggers cycles itself; the scheduler's own first run happens at boot.
        IMPORT_SCHEDULE: '0 0 1 1 *',
      },
    });
    const pid = worker.pid as number;
    const rss = new PeakRss(pid);
    // The worker is up once its scheduler exists; the scheduler's immediate first fan-out runs then.
    await waitUntil(async () => (await queue.getJobSchedulers()).length === 1, 'the worker to start');
    await waitUntil(() => queueIdle(queue), 'the boot-time fan-out');
    const bootInserted = await articleCount(db);
    if (bootInserted > 0) {
      log(`(the scheduler's first run at boot already imported ${bootInserted} items: see the note below)`);
    }

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

    const big = generateFeed(publishers, 4_400, 6);
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
      `Big feed (${mib(big.length)}, 4,400 items): ${JSON.stringify(bigJob?.returnvalue ?? bigJob?.failedReason)} in ${((performance.now() - bigStarted) / 1000).toFixed(2)} s; worker peak RSS ${mib(bigPeak)}`,
    );

    log('');
    log('Targets: >= 2,500 items/s; unchanged cycle >= 10x faster; worker peak RSS <= 200 MB.');
  } finally {
    clearTimeout(watchdog);
    if (worker && worker.exitCode === null) {
      const exited = new Promise((done) => worker?.once('exit', done));
      worker.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (worker.exitCode === null) worker.kill('SIGKILL');
    }
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  }
}

await main();
