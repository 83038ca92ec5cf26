import { type ApiConfig, loadApiConfig } from '@newsroom/config';
import type { Registry } from '@newsroom/metrics';
import { createFeedImportQueue, createRedisConnection } from '@newsroom/queue';
import { createTestDatabase, testRedis } from '@newsroom/test-support';
import type { FastifyServerOptions } from 'fastify';
import { type App, buildApp } from '../../src/app';
import type { UploadSigner } from '../../src/storage/upload-signer';

export const testApiKey = 'test-network-api-key-0123456789';

/** The API's configuration as a test environment would produce it, through the real parser. */
export function testConfig(env: Record<string, string | undefined> = {}): ApiConfig {
  return loadApiConfig({
    NODE_ENV: 'test',
    PORT: '3000',
    API_KEY: testApiKey,
    JWT_SECRET: 'test-jwt-secret-0123456789-0123456789-0123456789',
    DATABASE_URL: 'postgres://unused/unused',
    ...env,
  });
}

export interface TestApp {
  app: App;
  db: Awaited<ReturnType<typeof createTestDatabase>>['db'];
  config: ApiConfig;
  close(): Promise<void>;
}

/**
 * The real app on this test file's own database and Redis key prefix.
 * `env` overrides configuration variables; `redisUrl` can point at a dead Redis to test outages;
 * `storage` is the upload signer (none: uploads unconfigured).
 */
export async function createTestApp(
  options: {
    env?: Record<string, string | undefined>;
    redisUrl?: string;
    fastify?: FastifyServerOptions;
    storage?: UploadSigner;
    /** Records the app's metrics (served at /metrics when env sets METRICS_TOKEN). */
    metricsRegistry?: Registry;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const redisTarget = testRedis();
  const config = testConfig({
    DATABASE_URL: database.url,
    REDIS_URL: options.redisUrl ?? redisTarget.url,
    QUEUE_PREFIX: redisTarget.prefix,
    ...options.env,
  });
  const redis = createRedisConnection(config.redis.url, 'producer');
  const feedImportQueue = createFeedImportQueue({ connection: redis, prefix: config.redis.queuePrefix });
  const app = await buildApp(
    {
      config,
      db: database.db,
      redis,
      feedImportQueue,
      storage: options.storage,
      metricsRegistry: options.metricsRegistry,
    },
    options.fastify,
  );
  return {
    app,
    db: database.db,
    config,
    async close() {
      await app.close();
      await feedImportQueue.close();
      redis.disconnect();
      await database.destroy();
    },
  };
}
