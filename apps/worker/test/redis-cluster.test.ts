import { setTimeout as sleep } from 'node:timers/promises';
import { loadWorkerConfig } from '@newsroom/config';
import { createWebhookEndpoint, insertArticle } from '@newsroom/domain';
import { createFeedImportQueue, createRedisConnection } from '@newsroom/queue';
import { createTestDatabase, startFeedServer, startRedisCluster } from '@newsroom/test-support';
import { Cluster } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createImportWorker } from '../src/imports/import-worker';
import { createWebhookWorker } from '../src/webhooks/webhook-worker';
import { startWebhookReceiver } from './support/webhook-receiver';
import { insertPublisher } from './support/worker-harness';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

// One three-master cluster for the file; the worker runs on it as main.ts builds it (REDIS_CLUSTER_NODES).
const cluster = await startRedisCluster(3);
const database = await createTestDatabase();
const { db } = database;
const config = loadWorkerConfig({
  NODE_ENV: 'test',
  DATABASE_URL: database.url,
  REDIS_CLUSTER_NODES: cluster.nodes.join(','),
  QUEUE_PREFIX: 'newsroom',
  FEED_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_RELAY_INTERVAL_MS: '50',
  WEBHOOK_SWEEP_INTERVAL_MS: '200',
});
const connection = createRedisConnection(config.redis, 'worker');
const feeds = await startFeedServer();
const receiver = await startWebhookReceiver();
const imports = await createImportWorker({ config, db, connection, schedule: true, retryBaseDelayMs: 50 });
const webhooks = await createWebhookWorker({
  config,
  db,
  connection,
  isAllowedAddress: (address) => address === '127.0.0.1',
});
const producer = createRedisConnection(config.redis, 'producer');
const queue = createFeedImportQueue({ connection: producer, prefix: config.redis.queuePrefix });

afterAll(async () => {
  await Promise.allSettled([imports.close(), webhooks.close(), queue.close()]);
  producer.disconnect();
  connection.disconnect();
  await Promise.allSettled([feeds.close(), receiver.close(), database.destroy()]);
  await cluster.stop();
});

async function waitFor<T>(read: () => Promise<T | undefined | false>, what: string, boundMs = 20_000) {
  for (const deadline = Date.now() + boundMs; Date.now() < deadline; await sleep(50)) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
  }
  throw new Error(`${what}: not within ${boundMs} ms`);
}

const feedOf = (name: string) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>${name}</title><link>https://${name}.example/</link>` +
  `<item><guid>${name}-1</guid><title>${name} story</title><link>https://${name}.example/1</link>` +
  '<description>&lt;p&gt;Body&lt;/p&gt;</description><pubDate>Sat, 21 Nov 2026 10:00:00 GMT</pubDate></item>' +
  '</channel></rss>';

describe('the worker on a three-master Redis Cluster', () => {
  it('connects as a cluster, with every key under one hash tag', () => {
    expect(connection).toBeInstanceOf(Cluster);
    expect(config.redis.queuePrefix).toBe('{newsroom}');
  });

  it('fans out the scheduled import and fetches each feed', async () => {
    const publishers = [];
    for (const name of ['north', 'south']) {
      feeds.route(`/${name}.rss`, { body: feedOf(name) });
      publishers.push(await insertPublisher(db, { name, feedUrl: feeds.url(`/${name}.rss`) }));
    }
    // The scheduler's first run may have gone by before the publishers existed: a fan-out as it makes one.
    await queue.add('fan-out-feeds', {}, { jobId: 'fan-out-cluster-test' });
    const imported = await waitFor(async () => {
      const rows = await db.selectFrom('articles').select(['publisher_id', 'title']).execute();
      return rows.length >= 2 && rows;
    }, 'both feeds imported');
    expect(imported.map((row) => row.publisher_id).sort()).toEqual([...publishers].sort());
    expect(feeds.requestsTo('/north.rss')).toHaveLength(1);
    expect(feeds.requestsTo('/south.rss')).toHaveLength(1);
    // The hourly job scheduler lives on the cluster too.
    expect(await queue.getJobSchedulers()).toHaveLength(1);
  });

  it('delivers a webhook', async () => {
    await createWebhookEndpoint(db, {
      url: receiver.url('/hook'),
      events: ['article.published'],
      site: null,
      enabled: true,
    });
    const article = await insertArticle(db, {
      title: 'Clustered',
      slug: 'clustered',
      body: '<p>On three shards.</p>',
      tags: [],
      status: 'published',
      published_at: new Date(),
    });
    const [hook] = await waitFor(
      async () => receiver.received('/hook').length > 0 && receiver.received('/hook'),
      'the webhook',
    );
    expect(JSON.parse(hook?.body ?? '{}')).toMatchObject({
      type: 'article.published',
      data: { id: article.id },
    });
    await waitFor(
      async () =>
        (await db.selectFrom('webhook_deliveries').select('delivered_at').executeTakeFirst())?.delivered_at,
      'the delivery recorded',
    );
  });

  it('keeps every key of the processes on one master (one slot)', async () => {
    const masters = (connection as Cluster).nodes('master');
    expect(masters).toHaveLength(3);
    const keysPerMaster = await Promise.all(masters.map((node) => node.keys('*')));
    const holding = keysPerMaster.filter((keys) => keys.length > 0);
    expect(holding).toHaveLength(1);
    const keys = holding[0] ?? [];
    expect(keys.some((key) => key.startsWith('{newsroom}:feed-import:'))).toBe(true);
    expect(keys.some((key) => key.startsWith('{newsroom}:webhook-delivery:'))).toBe(true);
    expect(keys.every((key) => key.startsWith('{newsroom}:'))).toBe(true);
  });
});
