import { setTimeout as sleep } from 'node:timers/promises';
import { loadWorkerConfig } from '@newsroom/config';
import { createWebhookEndpoint, insertArticle } from '@newsroom/domain';
import { createRedisConnection } from '@newsroom/queue';
import { createTestDatabase, type PrivateRedis, startPrivateRedis } from '@newsroom/test-support';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createWebhookWorker, type WebhookWorker } from '../src/webhooks/webhook-worker';
import { startWebhookReceiver } from './support/webhook-receiver';

// A private redis-server: this file stops it, which the shared one must never see.
vi.setConfig({ testTimeout: 60_000 });

const database = await createTestDatabase();
const { db } = database;
const redis: PrivateRedis = await startPrivateRedis();
const receiver = await startWebhookReceiver();
const config = loadWorkerConfig({
  NODE_ENV: 'test',
  DATABASE_URL: database.url,
  REDIS_URL: redis.url,
  QUEUE_PREFIX: 'webhooks-outage',
  FEED_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RELAY_INTERVAL_MS: '50',
  WEBHOOK_SWEEP_INTERVAL_MS: '200',
});
const started: { worker: WebhookWorker; disconnect(): void }[] = [];
afterAll(async () => {
  for (const { worker, disconnect } of started) {
    await worker.worker.close(true);
    await worker.close();
    disconnect();
  }
  await redis.stop();
  await receiver.close();
  await database.destroy();
});

async function startWorker() {
  const connection = createRedisConnection(redis.url, 'worker');
  const worker = await createWebhookWorker({ config, db, connection });
  started.push({ worker, disconnect: () => connection.disconnect() });
  return worker;
}

async function waitFor(check: () => Promise<boolean> | boolean, what: string, boundMs = 20_000) {
  for (const deadline = Date.now() + boundMs; Date.now() < deadline; await sleep(50)) {
    if (await check()) return;
  }
  throw new Error(`${what}: not within ${boundMs} ms`);
}

function nth<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
}

let count = 0;
const publish = (title: string) => {
  count += 1;
  return insertArticle(db, {
    title,
    slug: `outage-${count}`,
    body: '<p>x</p>',
    tags: [],
    status: 'published',
    published_at: new Date(),
  });
};

describe('webhooks and Redis', () => {
  it('two worker replicas deliver every event exactly once', async () => {
    await startWorker();
    await startWorker();
    const { endpoint } = await createWebhookEndpoint(db, {
      url: receiver.url('/replicas'),
      events: ['article.published'],
      site: null,
      enabled: true,
    });
    for (let i = 0; i < 20; i++) await publish(`Story ${i}`);
    await waitFor(() => receiver.received('/replicas').length >= 20, '20 deliveries');
    await sleep(1_000);
    const ids = receiver.received('/replicas').map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    await db.updateTable('webhook_endpoints').set({ enabled: false }).where('id', '=', endpoint.id).execute();
  });

  it('an article published while Redis is down is delivered anyway (Postgres only), once', async () => {
    if (started.length === 0) await startWorker();
    await createWebhookEndpoint(db, {
      url: receiver.url('/outage'),
      events: ['article.published'],
      site: null,
      enabled: true,
    });
    await redis.stop();
    const article = await publish('Published during the outage');
    // The relay and the delivery pump need only Postgres.
    await waitFor(() => receiver.received('/outage').length > 0, 'delivery while Redis is down');
    const body = JSON.parse(nth(receiver.received('/outage'), 0).body);
    expect(body).toMatchObject({ type: 'article.published', data: { id: article.id } });
    await redis.restart(); // an empty server: nothing of the delivery was ever in it
    await sleep(500);
    expect(receiver.received('/outage')).toHaveLength(1);
  });
});
