import { setTimeout as sleep } from 'node:timers/promises';
import { loadWorkerConfig } from '@newsroom/config';
import { createWebhookEndpoint, insertArticle, type PostgresListener } from '@newsroom/domain';
import { createRedisConnection } from '@newsroom/queue';
import { createTestDatabase, testRedis } from '@newsroom/test-support';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { listenForContentChanges } from '../src/content-changes';
import { startPeriodic } from '../src/periodic';
import { createPurgeWorker } from '../src/purge/purge-worker';
import { createWebhookWorker } from '../src/webhooks/webhook-worker';
import { keysOf, startPurgeRecorder } from './support/purge-recorder';
import { startWebhookReceiver } from './support/webhook-receiver';

// The outbox relays (webhooks, CDN purges) run when Postgres says a change committed, not at their next interval:
// here both intervals are ten minutes, so anything sent within seconds was sent because a notification woke it.

vi.setConfig({ testTimeout: 30_000 });

describe('a periodic task woken', () => {
  it('runs at once when idle, and once more right after a run in progress, however often it is woken', async () => {
    let runs = 0;
    let release: (() => void) | undefined;
    const periodic = startPeriodic(async () => {
      runs += 1;
      if (runs === 2) await new Promise<void>((resolve) => (release = resolve));
    }, 600_000);
    await vi.waitUntil(() => runs === 1, { timeout: 1_000 });
    await sleep(20);

    periodic.wake();
    await vi.waitUntil(() => runs === 2, { timeout: 1_000 });
    // Woken three times while its second run is still going: one more run, right after it.
    periodic.wake();
    periodic.wake();
    periodic.wake();
    release?.();
    await vi.waitUntil(() => runs === 3, { timeout: 1_000 });
    await sleep(100);
    expect(runs).toBe(3);
    await periodic.stop();
    periodic.wake();
    await sleep(20);
    expect(runs).toBe(3);
  });
});

describe('a periodic task answering soon', () => {
  it('runs again after 10, 20, 40... ms while it answers soon, then waits its interval', async () => {
    const started: number[] = [];
    const periodic = startPeriodic(async () => {
      started.push(performance.now());
      return started.length <= 4 ? 'soon' : undefined;
    }, 600_000);
    await vi.waitUntil(() => started.length === 5, { timeout: 2_000 });
    await sleep(200);
    expect(started).toHaveLength(5);
    const pauses = started.slice(1).map((at, i) => at - (started[i] as number));
    // Timers fire no earlier than asked: each pause at least its step, and the steps double.
    for (const [i, step] of [10, 20, 40, 80].entries()) expect(pauses[i]).toBeGreaterThanOrEqual(step - 1);
    await periodic.stop();
  });

  it('starts its pauses again from 10 ms when woken', async () => {
    let runs = 0;
    const periodic = startPeriodic(async () => {
      runs += 1;
      return 'soon';
    }, 600_000);
    // Answering soon for long: its pause has grown to seconds.
    await vi.waitUntil(() => runs >= 9, { timeout: 5_000, interval: 5 });
    const before = runs;
    periodic.wake();
    // The woken run, then one after 10 ms and one after 20 more: within 200 ms, not after the grown pause.
    await vi.waitUntil(() => runs >= before + 3, { timeout: 200, interval: 5 });
    await periodic.stop();
  });
});

const database = await createTestDatabase();
const { db } = database;
const redis = testRedis();
const receiver = await startWebhookReceiver();
const recorder = await startPurgeRecorder();
const config = loadWorkerConfig({
  NODE_ENV: 'test',
  DATABASE_URL: database.url,
  // LISTEN needs a session: Postgres itself, also when the pools go through PgBouncer (pnpm test:pgbouncer).
  DATABASE_DIRECT_URL: database.directUrl,
  REDIS_URL: redis.url,
  QUEUE_PREFIX: redis.prefix,
  FEED_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_RELAY_INTERVAL_MS: '600000',
  WEBHOOK_SWEEP_INTERVAL_MS: '600000',
  PURGE_VARNISH_URLS: recorder.url,
  PURGE_RELAY_INTERVAL_MS: '600000',
});
const connection = createRedisConnection(config.redis.url, 'worker');
const webhooks = await createWebhookWorker({
  config,
  db,
  connection,
  isAllowedAddress: (address) => address === '127.0.0.1',
});
const purges = createPurgeWorker({ config, db });
if (!purges) throw new Error('the config names Varnish');
// Wired as main.ts wires it.
const listener: PostgresListener = await listenForContentChanges({
  connectionString: config.databaseDirectUrl,
  onChange: () => {
    webhooks.wakeRelay();
    purges.wake();
  },
});
afterAll(async () => {
  await listener.close();
  await Promise.all([webhooks.close(), purges.close()]);
  await webhooks.queue.obliterate({ force: true }).catch(() => {});
  connection.disconnect();
  await Promise.all([receiver.close(), recorder.close()]);
  await database.destroy();
});

await createWebhookEndpoint(db, {
  url: receiver.url('/hook'),
  events: ['article.published'],
  site: null,
  enabled: true,
});
// The relays' first runs (at start) are over before anything below is published.
await Promise.all([webhooks.relayNow(), purges.runNow()]);

let count = 0;
async function publish(title: string) {
  count += 1;
  return insertArticle(db, {
    title,
    slug: `wake-${count}-${Date.now()}`,
    body: `<p>${title}</p>`,
    tags: [],
    status: 'published',
    published_at: new Date(),
  });
}

/** Resolves once the webhook and the purge of `articleId` were both sent; throws after 10 s (the intervals are 10 min). */
async function sentSoon(articleId: string): Promise<void> {
  await vi.waitUntil(
    () =>
      receiver.received('/hook').some((request) => request.body.includes(articleId)) &&
      recorder.requests.some((request) => keysOf(request).includes(`article:${articleId}`)),
    { timeout: 10_000, interval: 10 },
  );
}

describe('the relays woken by content_changed', () => {
  it('send a publish as a webhook and a CDN purge within moments, not at their ten-minute interval', async () => {
    const article = await publish('Ferry timetable changes');
    await sentSoon(article.id);
  });

  it('look again soon when what woke them is not final yet (an older write transaction still open)', async () => {
    // A write transaction that took its id before the publish and stays open: the publish commits and notifies, but
    // the relays read only below the oldest open transaction id, so its change waits until the older one ends.
    const blocker = new pg.Client({ connectionString: database.directUrl });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select pg_current_xact_id()');
      const article = await publish('Published while an older transaction is open');
      await sleep(300);
      expect(receiver.received('/hook').some((request) => request.body.includes(article.id))).toBe(false);
      const ended = Date.now();
      await blocker.query('commit');
      await sentSoon(article.id);
      // Sent once the older transaction ended, without another notification and long before the ten-minute interval.
      expect(Date.now() - ended).toBeLessThan(3_000);
    } finally {
      await blocker.end();
    }
  });

  it('listen again after their connection is cut, and wake for what was committed meanwhile', async () => {
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
               where application_name = 'newsroom-worker-changes' and datname = current_database()`.execute(
      db,
    );
    const article = await publish('Committed while the listener reconnects');
    await sentSoon(article.id);
    await vi.waitUntil(
      async () => {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where application_name = 'newsroom-worker-changes' and datname = current_database()`.execute(db);
        return rows[0]?.n === 1;
      },
      { timeout: 5_000, interval: 50 },
    );
    const later = await publish('After the reconnection');
    await sentSoon(later.id);
  });
});
