import type { ApiConfig } from '@newsroom/config';
import type { Db, PasswordHasher } from '@newsroom/domain';
import type { FeedFetcher } from '@newsroom/feeds';
import type { Registry } from '@newsroom/metrics';
import type { FeedImportQueue, RedisClient } from '@newsroom/queue';
import type { SiteKeyUsage } from './delivery/site-key-usage';
import type { ConcurrencyLimit } from './feeds/concurrency-limit';
import type { ApiMetrics } from './metrics/api-metrics';
import type { DeviceCookies } from './routes/auth/device-cookie';
import type { LoginLimiter } from './routes/auth/login-limiter';
import type { UploadSigner } from './storage/upload-signer';

/** What the API is built from. The composition root (server.ts, or a test) creates and owns these. */
export interface AppDeps {
  config: ApiConfig;
  db: Db;
  /**
   * A streaming replica of `db` for the client content reads (DATABASE_REPLICA_URL); without it they read `db`.
   * Owned by the composition root, like `db`.
   */
  replicaDb?: Db;
  /** A fail-fast ("producer") connection: commands error at once while Redis is down. */
  redis: RedisClient;
  /**
   * Producer side of the feed-import queue (on the `redis` connection). Without it the re-trigger
   * route answers 503 and the queue dashboard is not mounted.
   */
  feedImportQueue?: FeedImportQueue;
  /** Signs direct-to-storage uploads; absent when storage is not configured (the signing route answers 503). */
  storage?: UploadSigner;
  /**
   * Registry the API's metrics are recorded in (one per app; server.ts makes it when METRICS_TOKEN is set).
   * Without it nothing is measured; without METRICS_TOKEN nothing is served at /metrics.
   */
  metricsRegistry?: Registry;
  /**
   * false only in `pnpm bench:audit`, to measure what the audit log costs a write: the routes then write no audit
   * rows. Production and tests always audit (server.ts never sets it).
   */
  auditRoutes?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: ApiConfig;
    db: Db;
    /** The read replica (AppDeps.replicaDb); only the client content reads use it (delivery/replica/). */
    replicaDb: Db | undefined;
    redis: RedisClient;
    feedImportQueue: FeedImportQueue | undefined;
    /** Safe feed fetcher for the test-feed preview (same rules as the worker's). */
    feedFetcher: FeedFetcher;
    /** Test-feed previews running in this process (at most FEED_PREVIEW_CONCURRENCY). */
    feedPreviews: ConcurrencyLimit;
    /** bcrypt at the configured cost; shared so the dummy hash for unknown e-mails is made once. */
    passwords: PasswordHasher;
    /** Failed-login counters in Redis, shared by every route that checks a password. */
    loginLimiter: LoginLimiter;
    /** Signed per-login cookies of browsers that signed in before (routes/auth/device-cookie.ts). */
    deviceCookies: DeviceCookies;
    storage: UploadSigner | undefined;
    /** Which site keys client requests used; written to Postgres about once a minute. */
    siteKeyUsage: SiteKeyUsage;
    /** The API's metrics; undefined when the app was built without a metrics registry. */
    metrics: ApiMetrics | undefined;
  }
}
