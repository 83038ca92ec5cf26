import { createDb } from '@newsroom/domain';
import { createMetricsRegistry } from '@newsroom/metrics';
import { startStreamingCluster } from '@newsroom/test-support';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ReplicaContent } from '../../src/delivery/replica/content-database';
import { describeChangeFeedMirror } from '../support/change-feed-mirror';
import { insertArticle, insertSite, issueSiteKey, minutesAgo } from '../support/content-fixtures';
import { describeSelectiveInvalidation } from '../support/selective-invalidation';
import { createTestApp } from '../support/test-app';

// The client content reads on a real streaming replica (docs/deployment.md#a-read-replica-for-client-reads):
// a primary of this file's own and a replica from pg_basebackup that applies every commit 150 ms late. The
// invalidation tests and the change feed mirror property run unchanged against it: a cache refilled after a
// NOTIFY, and /all read after a change feed cursor, must not show the replica's older state. A read the replica
// cancels for a conflict with replay is read again on the primary. Then the replica lags past the bound, and
// dies: reads go to the primary, and come back to the replica when it is back.

const applyDelayMs = 150;
const cluster = await startStreamingCluster({ applyDelayMs });
const metricsRegistry = createMetricsRegistry();
const testApp = await createTestApp({
  databaseUrl: cluster.primaryUrl,
  metricsRegistry,
  env: {
    DATABASE_REPLICA_URL: cluster.replicaUrl,
    DATABASE_REPLICA_MAX_LAG_MS: '1000',
    DATABASE_REPLICA_PROBE_MS: '200',
    RATE_LIMIT_CLIENT_ALL: 'off',
  },
});
afterAll(async () => {
  await testApp.close();
  await cluster.stop();
});
const { app, db } = testApp;

/** How many content reads went each way so far. */
const routes = async () => {
  const metric = await metricsRegistry.getSingleMetric('newsroom_client_content_reads_total')?.get();
  const counts: Record<string, number> = {};
  for (const { labels, value } of metric?.values ?? []) counts[String(labels.route)] = value;
  return counts;
};
const replicaUp = async () =>
  (await metricsRegistry.getSingleMetric('newsroom_db_replica_up')?.get())?.values[0]?.value;

describe('the streaming replica under test', () => {
  it('lags the primary by the injected delay, and the reads go to it', async () => {
    const site = await insertSite(db, 'lagging');
    const key = (await issueSiteKey(db, site)).key;
    await insertArticle(db, { slug: 'just-written', siteIds: [site], publishedAt: minutesAgo(1) });
    // Straight on the replica, right after the commit: not there yet (the trap the reads must avoid)...
    const replica = new pg.Client(cluster.replicaUrl);
    await replica.connect();
    try {
      const { rows } = await replica.query(
        "select count(*)::int as n from articles where slug = 'just-written'",
      );
      expect(rows[0].n).toBe(0);
    } finally {
      await replica.end();
    }
    // ... while the API's read, on the replica, waits for it.
    const before = (await routes()).replica ?? 0;
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/client/article/just-written',
      headers: { 'x-api-key': key },
    });
    expect(response.statusCode).toBe(200);
    expect((await routes()).replica).toBe(before + 1);
  });

  it('never hands out a change feed cursor past what /client/all then shows', async () => {
    const site = await insertSite(db, 'cursor');
    const key = (await issueSiteKey(db, site)).key;
    const get = (url: string) =>
      app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key } });
    // Replay paused: the replica is behind for as long as the test needs, however slow the machine.
    await whilePaused(async () => {
      await insertArticle(db, { slug: 'before-the-cursor', siteIds: [site], publishedAt: minutesAgo(1) });
      // The cursor (from the primary) covers the article: /all, read next, must hold it, or a child site
      // that follows the feed from this cursor would never get it.
      expect((await get('/changes')).statusCode).toBe(200);
      const all = (await get('/all')).json().data as Array<{ slug: string }>;
      expect(all.map((article) => article.slug)).toEqual(['before-the-cursor']);
    });
  });

  it('reads again on the primary when the replica cancels a read for a conflict with replay', async () => {
    const site = await insertSite(db, 'conflicting');
    await insertArticle(db, { slug: 'doomed', siteIds: [site], publishedAt: minutesAgo(1) });
    const seen: string[] = [];
    const replicaDb = createDb({ connectionString: cluster.replicaUrl, max: 2 });
    const content = new ReplicaContent({
      primary: db,
      replica: replicaDb,
      maxLagMs: 5_000,
      probeMs: 1_000,
      onRoute: (route) => seen.push(route),
    });
    await content.start();
    try {
      // A read on the replica that holds the doomed row while the primary deletes it and vacuums it away.
      const read = content.read(async (source) => {
        await sql`select slug, pg_sleep(1) from articles where slug = 'doomed'`.execute(source);
        return source === db ? 'primary' : 'replica';
      });
      await expect.poll(() => sleepingOnReplica(), { timeout: 5_000, interval: 20 }).toBe(true);
      await db.deleteFrom('articles').where('slug', '=', 'doomed').execute();
      await sql`vacuum articles`.execute(db);
      expect(await read).toBe('primary');
      expect(seen).toEqual(['replica', 'primary_recovery_conflict']);
      expect(content.replicaUp).toBe(true);
    } finally {
      content.close();
      await replicaDb.destroy();
    }
  });
});

describeSelectiveInvalidation(testApp);
describeChangeFeedMirror(testApp, { numRuns: 6 });

describe('a replica lagging past DATABASE_REPLICA_MAX_LAG_MS, or down', () => {
  const site = insertSite(db, 'failing');
  const key = site.then((id) => issueSiteKey(db, id));
  const read = async (slug: string) =>
    app.inject({
      method: 'GET',
      url: `/api/v1/client/article/${slug}`,
      headers: { 'x-api-key': (await key).key },
    });

  it('reads the primary while the replica does not replay, and the replica again once it does', async () => {
    await whilePaused(async () => {
      await insertArticle(db, { slug: 'while-paused', siteIds: [await site], publishedAt: minutesAgo(1) });
      const lagging = (await routes()).primary_lagging ?? 0;
      expect((await read('while-paused')).statusCode).toBe(200);
      expect((await routes()).primary_lagging).toBe(lagging + 1);
    });
    const viaReplica = (await routes()).replica ?? 0;
    await insertArticle(db, { slug: 'after-resume', siteIds: [await site], publishedAt: minutesAgo(1) });
    expect((await read('after-resume')).statusCode).toBe(200);
    expect((await routes()).replica).toBe(viaReplica + 1);
  });

  it('answers from the primary when the replica dies, within a bounded time, and returns to it', async () => {
    await cluster.stopReplica();
    // The first read may still pick the replica (its probe has not failed yet): it fails there and is
    // answered from the primary. Every read after is answered too, none waits for the replica.
    await insertArticle(db, { slug: 'replica-dead', siteIds: [await site], publishedAt: minutesAgo(1) });
    const started = Date.now();
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await read(`replica-dead${attempt === 0 ? '' : `-missing-${attempt}`}`);
      expect(response.statusCode).toBe(attempt === 0 ? 200 : 404);
    }
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect.poll(replicaUp, { timeout: 5_000, interval: 50 }).toBe(0);
    expect((await routes()).primary_replica_down ?? 0).toBeGreaterThan(0);

    await cluster.startReplica();
    await expect.poll(replicaUp, { timeout: 10_000, interval: 50 }).toBe(1);
    const viaReplica = (await routes()).replica ?? 0;
    expect((await read('replica-dead-back')).statusCode).toBe(404);
    expect((await routes()).replica).toBe(viaReplica + 1);
  });
});

/** One statement straight on the replica (a connection of its own: the replica is stopped in between). */
async function onTheReplica(text: string): Promise<void> {
  const client = new pg.Client(cluster.replicaUrl);
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Runs `work` while the replica replays nothing (pg_wal_replay_pause), and resumes it however `work` ends. */
async function whilePaused(work: () => Promise<void>): Promise<void> {
  await onTheReplica('select pg_wal_replay_pause()');
  try {
    await work();
  } finally {
    await onTheReplica('select pg_wal_replay_resume()');
  }
}

/** Whether a read is sleeping on the replica now (pg_stat_activity). */
async function sleepingOnReplica(): Promise<boolean> {
  const client = new pg.Client(cluster.replicaUrl);
  await client.connect();
  try {
    const { rows } = await client.query(
      "select count(*)::int as n from pg_stat_activity where query like '%pg_sleep(1)%' and state = 'active' and pid <> pg_backend_pid()",
    );
    return rows[0].n > 0;
  } finally {
    await client.end();
  }
}
