import { loadWorkerConfig, type StorageConfig } from '@newsroom/config';
import { createRedisConnection } from '@newsroom/queue';
import { type FeedServer, startFeedServer } from '@newsroom/test-support';
import { createUploadSigner } from '../../../../api/src/storage/upload-signer';
import { insertAdmin } from '../../../../api/test/support/dashboard-accounts';
import { createTestApp } from '../../../../api/test/support/test-app';
import { createImportWorker } from '../../../../worker/src/imports/import-worker';
import { startScheduler } from '../../../../worker/src/schedule/scheduler';
import { createWebhookWorker } from '../../../../worker/src/webhooks/webhook-worker';
import { builtDashboard } from './built-dashboard';

export const adminPassword = 'admin password for the browser test';

/**
 * Everything a person's browser talks to, on loopback: the dashboard built for production (once per
 * run: built-dashboard.ts), served by the real API on this file's database and Redis prefix, a real import
 * worker on the same queue, and a feed server; with `webhooks`, the worker's webhook side too (relay and
 * sweep at short intervals).
 */
export async function startStack(
  options: { storage?: StorageConfig; webhooks?: boolean; schedule?: boolean } = {},
) {
  const dist = await builtDashboard();
  const { storage } = options;
  const testApp = await createTestApp({
    env: {
      FEED_ALLOW_PRIVATE_ADDRESSES: 'true',
      DASHBOARD_DIST: dist,
      // Uploads configured as in production (STORAGE_*), signed by the server's own signer.
      ...(storage && {
        STORAGE_ACCESS_KEY_ID: storage.accessKeyId,
        STORAGE_SECRET_ACCESS_KEY: storage.secretAccessKey,
        STORAGE_REGION: storage.region,
        STORAGE_BUCKET: storage.bucket,
        STORAGE_ENDPOINT: storage.endpoint,
      }),
    },
    storage: storage && createUploadSigner(storage),
  });
  const { app, db, config } = testApp;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the API is not listening on a port');
  const origin = `http://127.0.0.1:${address.port}`;

  const workerConfig = loadWorkerConfig({
    NODE_ENV: 'test',
    DATABASE_URL: config.databaseUrl,
    REDIS_URL: config.redis.url,
    QUEUE_PREFIX: config.redis.queuePrefix,
    FEED_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_RELAY_INTERVAL_MS: '100',
    WEBHOOK_SWEEP_INTERVAL_MS: '200',
  });
  const connection = createRedisConnection(workerConfig.redis.url, 'worker');
  const worker = await createImportWorker({ config: workerConfig, db, connection, schedule: false });
  const webhooks = options.webhooks
    ? await createWebhookWorker({ config: workerConfig, db, connection })
    : undefined;
  // With `schedule`, the worker's scheduled-publishing wing (a short poll: the test schedules seconds ahead).
  const scheduler = options.schedule
    ? startScheduler({
        db,
        logger: { info: () => {}, error: () => {} } as never,
        pollMs: 200,
        batchSize: 100,
      })
    : undefined;
  const feeds: FeedServer = await startFeedServer();
  const admin = await insertAdmin(app, db, { password: adminPassword });

  return {
    origin,
    app,
    db,
    feeds,
    admin: { email: admin.email, password: adminPassword },
    async close() {
      await worker.close();
      await scheduler?.close();
      await webhooks?.close();
      await webhooks?.queue.obliterate({ force: true }).catch(() => {});
      connection.disconnect();
      await app.feedImportQueue?.obliterate({ force: true });
      await feeds.close();
      await testApp.close();
    },
  };
}

/** A small RSS feed whose thumbnails are served by the same loopback server. */
export function newsFeed(feeds: FeedServer, count: number): string {
  const items = Array.from(
    { length: count },
    (_, i) => `<item>
      <guid>browser-story-${i}</guid>
      <title>Harbour council story ${i + 1}</title>
      <link>${feeds.url(`/stories/${i}`)}</link>
      <pubDate>Mon, 23 Nov 2026 0${i % 10}:30:00 GMT</pubDate>
      <media:thumbnail url="${feeds.url('/thumb.svg')}" width="120" height="80"/>
      <description>&lt;p&gt;The harbour council met on Monday to discuss story ${i + 1}, with residents asking about the new ferry timetable.&lt;/p&gt;</description>
    </item>`,
  ).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel>
<title>Harbour Gazette</title><link>${feeds.url('/')}</link><description>Local news</description>
${items}</channel></rss>`;
}

export const thumbnailSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="#7aa7d6"/><circle cx="90" cy="24" r="12" fill="#f4d35e"/><path d="M0 80 L40 40 L70 65 L95 50 L120 80 Z" fill="#2f5d8a"/></svg>`;
