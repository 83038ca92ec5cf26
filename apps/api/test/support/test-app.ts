import { resolve } from 'node:path';
import { type ApiConfig, loadApiConfig } from '@newsroom/config';
import { createDb } from '@newsroom/domain';
import type { Registry } from '@newsroom/metrics';
import { createFeedImportQueue, createRedisConnection } from '@newsroom/queue';
import { createTestDatabase, testRedis } from '@newsroom/test-support';
import type { FastifyServerOptions } from 'fastify';
import { type App, buildApp } from '../../src/app';
import type { UploadSigner } from '../../src/storage/upload-signer';

export const testApiKey = 'test-network-api-key-0123456789';

/**
 * A folder that never holds a build. The default DASHBOARD_DIST is apps/dashboard/dist of the checkout,
 * which exists once `pnpm start` or `pnpm build` has run there: the suite must answer the same either way,
 * so a test serves a dashboard only when it hands one in (DASHBOARD_DIST).
 */
export const noDashboardBuild = resolve(import.meta.dirname, 'no-dashboard-build');

/** The API's configuration as a test environment would produce it, through the real parser. */
export function testConfig(env: Record<string, string | undefined> = {}): ApiConfig {
  return loadApiConfig({
    NODE_ENV: 'test',
    PORT: '3000',
    API_KEY: testApiKey,
    JWT_SECRET: 'test-jwt-secret-0123456789-0123456789-0123456789',
    DATABASE_URL: 'postgres://unused/unused',
    DASHBOARD_DIST: noDashboardBuild,
    ...env,
  });
}

export interface TestApp {
  app: App;
  db: Awaited<ReturnType<typeof createTestDatabase>>['db'];
  /** The test database's URL (another replica: `createTestApp({ replicaOf })`). */
  databaseUrl: string;
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
    /**
     * Rewrites the app's database URL (e.g. through a TCP proxy). The app then gets a pool of its own with
     * the configured timeouts, built as server.ts builds it; the returned `db` still connects directly.
     */
    routeDatabase?: (url: string) => string;
    fastify?: FastifyServerOptions;
    storage?: UploadSigner;
    /** Records the app's metrics (served at /metrics when env sets METRICS_TOKEN). */
    metricsRegistry?: Registry;
    /** A second API replica on that app's database (its own caches and notifications; the database is not dropped). */
    replicaOf?: TestApp;
    /**
     * The database to run on instead of a clone on the shared test server (e.g. a primary of the test's own,
     * `startStreamingCluster`); the caller owns it (not dropped). A read replica is set with
     * `env.DATABASE_REPLICA_URL`.
     */
    databaseUrl?: string;
  } = {},
): Promise<TestApp> {
  const { replicaOf, databaseUrl } = options;
  const database = databaseUrl
    ? {
        url: databaseUrl,
        directUrl: databaseUrl,
        pooled: false,
        db: createDb({ connectionString: databaseUrl, max: 5, applicationName: 'newsroom-test' }),
        destroy: async () => {},
      }
    : replicaOf
      ? {
          url: replicaOf.databaseUrl,
          directUrl: replicaOf.config.databaseDirectUrl,
          pooled: !replicaOf.config.databasePreparedStatements,
          db: createDb({
            connectionString: replicaOf.databaseUrl,
            max: 4,
            preparedStatements: replicaOf.config.databasePreparedStatements,
          }),
          destroy: async () => {},
        }
      : await createTestDatabase();
  const redisTarget = testRedis();
  const config = testConfig({
    DATABASE_URL: options.routeDatabase ? options.routeDatabase(database.url) : database.url,
    // Behind PgBouncer (the pooled test job): LISTEN goes direct, and no named prepared statements.
    ...(database.pooled
      ? { DATABASE_DIRECT_URL: database.directUrl, DATABASE_PREPARED_STATEMENTS: 'off' }
      : {}),
    REDIS_URL: options.redisUrl ?? redisTarget.url,
    QUEUE_PREFIX: redisTarget.prefix,
    ...options.env,
  });
  const redis = createRedisConnection(config.redis, 'producer');
  const feedImportQueue = createFeedImportQueue({ connection: redis, prefix: config.redis.queuePrefix });
  // The file's database handle unless the app needs its own (a routed URL, prepared statements off).
  const appDb =
    options.routeDatabase || !config.databasePreparedStatements
      ? createDb({
          connectionString: config.databaseUrl,
          max: 4,
          timeouts: config.databaseTimeouts,
          preparedStatements: config.databasePreparedStatements,
        })
      : database.db;
  // The read replica's pool, as server.ts makes it.
  const replicaDb =
    config.replica &&
    createDb({
      connectionString: config.replica.url,
      max: 4,
      applicationName: 'newsroom-api-replica',
      timeouts: config.databaseTimeouts,
      preparedStatements: config.databasePreparedStatements,
    });
  const app = await buildApp(
    {
      config,
      db: appDb,
      replicaDb: replicaDb || undefined,
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
    databaseUrl: database.url,
    config,
    async close() {
      await app.close();
      await feedImportQueue.close();
      redis.disconnect();
      if (appDb !== database.db) await appDb.destroy();
      if (replicaDb) await replicaDb.destroy();
      if (replicaOf || databaseUrl) await database.db.destroy();
      await database.destroy();
    },
  };
}
