import { type Static, Type } from 'typebox';
import { type CommonConfig, common, commonVariables } from './common-config';
import { isCronPattern } from './cron-pattern';
import { ConfigError, parseEnv } from './parse-env';
import { Milliseconds } from './setting-types';

export const workerEnvSchema = Type.Object({
  ...commonVariables,
  IMPORT_SCHEDULE: Type.String({ default: '0 * * * *', description: 'cron pattern of the feed import, UTC' }),
  WORKER_CONCURRENCY: Type.Integer({ default: 8, minimum: 1, maximum: 256 }),
  WORKER_METRICS_PORT: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 65535, description: 'port of the worker metrics listener' }),
  ),
  WORKER_METRICS_HOST: Type.String({
    default: '127.0.0.1',
    description: 'address the worker metrics listener binds',
  }),
  WORKER_LOCK_SECONDS: Type.Integer({
    default: 30,
    minimum: 1,
    maximum: 600,
    description:
      "BullMQ job lock (renewed while a job runs) and stalled-job check interval: a dead worker's jobs run again within about twice this",
  }),
  FEED_FETCHES_PER_HOST: Type.Integer({
    default: 2,
    minimum: 1,
    maximum: 64,
    description: 'feed fetches at once per host, across all worker replicas (a lease in Redis)',
  }),
  FEED_FETCHES_PER_PUBLISHER: Type.Integer({
    default: 1,
    minimum: 1,
    maximum: 16,
    description:
      "fetch jobs of one publisher running at once, across all worker replicas: one publisher's slow feeds never hold more worker slots",
  }),
  SCHEDULE_CHECK_SECONDS: Type.Integer({
    default: 30,
    minimum: 1,
    maximum: 3600,
    description:
      'how often the worker checks that the import job scheduler exists in Redis (re-created if not)',
  }),
  WEBHOOK_CONCURRENCY: Type.Integer({
    default: 16,
    minimum: 1,
    maximum: 256,
    description: 'webhook attempts in flight at once per worker process',
  }),
  WEBHOOK_TIMEOUT_MS: Milliseconds(5_000, 'a webhook attempt (connect and response) is cut after', 100),
  WEBHOOK_MAX_ATTEMPTS: Type.Integer({
    default: 8,
    minimum: 1,
    maximum: 30,
    description: 'attempts per webhook delivery (with the default base delay: about a day of retries)',
  }),
  WEBHOOK_RETRY_BASE_MS: Milliseconds(
    30_000,
    'delay before the first webhook retry (then x4 each time, with jitter, at most 12 h)',
    1,
  ),
  WEBHOOK_DISABLE_AFTER_DAYS: Type.Number({
    default: 3,
    exclusiveMinimum: 0,
    maximum: 365,
    description: 'an endpoint whose every attempt has failed for this many days is disabled',
  }),
  WEBHOOK_RETENTION_DAYS: Type.Integer({
    default: 30,
    minimum: 1,
    maximum: 3650,
    description: 'webhook events and their delivery log are removed after this many days',
  }),
  WEBHOOK_RELAY_INTERVAL_MS: Milliseconds(
    1_000,
    'how often the worker turns new article changes into webhook deliveries when no notification woke it',
    10,
  ),
  WEBHOOK_SWEEP_INTERVAL_MS: Milliseconds(
    5_000,
    'how often the worker (re-)enqueues due webhook deliveries (after a Redis outage, resends)',
    10,
  ),
  SCHEDULER_POLL_MS: Milliseconds(
    1_000,
    'scheduled publishing: how often the worker looks for due actions when none is due sooner (one indexed query)',
    10,
  ),
  SCHEDULER_BATCH_SIZE: Type.Integer({
    default: 100,
    minimum: 1,
    maximum: 5_000,
    description: 'scheduled actions run per transaction',
  }),
  SCHEDULER_LANES: Type.Integer({
    default: 4,
    minimum: 1,
    maximum: 32,
    description:
      'scheduled-action batches run at once per worker, each over its own share of the articles (keep below DATABASE_POOL_SIZE)',
  }),
  PURGE_VARNISH_URLS: Type.Optional(
    Type.String({
      pattern: '^https?://[^,\\s]+(,https?://[^,\\s]+)*$',
      description: 'comma-separated base URLs of Varnish servers to send xkey purges to (docs/cdn.md)',
    }),
  ),
  PURGE_FASTLY_SERVICE_ID: Type.Optional(Type.String({ minLength: 1, description: 'Fastly service id' })),
  PURGE_FASTLY_TOKEN: Type.Optional(
    Type.String({ minLength: 1, description: 'Fastly API token (purge scope)' }),
  ),
  PURGE_FASTLY_API_URL: Type.String({
    pattern: '^[a-z][a-z0-9+.-]*://',
    description: 'Fastly API base URL',
    default: 'https://api.fastly.com',
  }),
  PURGE_FASTLY_REQUESTS_PER_SECOND: Type.Number({
    default: 10,
    exclusiveMinimum: 0,
    description: 'Fastly purge requests per second at most (each up to 256 surrogate keys)',
  }),
  PURGE_CLOUDFLARE_ZONE_ID: Type.Optional(Type.String({ minLength: 1, description: 'Cloudflare zone id' })),
  PURGE_CLOUDFLARE_TOKEN: Type.Optional(
    Type.String({ minLength: 1, description: 'Cloudflare API token (Cache Purge permission)' }),
  ),
  PURGE_CLOUDFLARE_API_URL: Type.String({
    pattern: '^[a-z][a-z0-9+.-]*://',
    description: 'Cloudflare API base URL',
    default: 'https://api.cloudflare.com/client/v4',
  }),
  PURGE_CLOUDFLARE_REQUESTS_PER_SECOND: Type.Number({
    default: 5,
    exclusiveMinimum: 0,
    description: "Cloudflare purge requests per second at most (each up to 100 tags; Pro plan's limit)",
  }),
  PURGE_RELAY_INTERVAL_MS: Milliseconds(
    200,
    'how often the worker turns article changes into CDN purges when no notification woke it',
    10,
  ),
  PURGE_TIMEOUT_MS: Milliseconds(5_000, 'a purge request is cut after', 100),
  FEED_FAILED_WEBHOOK_AFTER: Type.Integer({
    default: 5,
    minimum: 1,
    maximum: 1000,
    description: 'publisher.feed_failed is sent when a feed has failed this many times in a row',
  }),
  AUDIT_RETENTION_DAYS: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 36_500,
      description: 'audit events older than this many days are pruned (unset: kept for ever)',
    }),
  ),
  REVISION_DRAFT_RETENTION_DAYS: Type.Integer({
    default: 30,
    minimum: 1,
    maximum: 36500,
    description:
      'article revisions of unpublished versions older than this are thinned (published versions, each first and newest revision kept)',
  }),
});

export interface WorkerConfig extends CommonConfig {
  /**
   * scheduleCheckMs: how often the job scheduler's presence in Redis is checked (and restored);
   * lockMs: BullMQ's job lock duration and stalled-job check interval.
   */
  import: {
    schedule: string;
    concurrency: number;
    scheduleCheckMs: number;
    lockMs: number;
    /** Fetches at once per feed host across all replicas. */
    fetchesPerHost: number;
    /** Fetch jobs of one publisher running at once across all replicas. */
    fetchesPerPublisher: number;
  };
  /** The metrics listener starts only when both the token and the port are set. */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  webhooks: WebhookConfig;
  /** The audit log's retention in days; null keeps every event (the default). */
  audit: { retentionDays: number | null };
  /** Scheduled publishing (docs/scheduling.md). */
  scheduler: { pollMs: number; batchSize: number; lanes: number };
  /** Article revisions (docs/revisions.md): draft revisions older than this are thinned, hourly. */
  revisions: { draftRetentionMs: number };
  /** CDN purges from the outbox (docs/cdn.md); no provider configured: the purge relay does not run. */
  purge: PurgeConfig;
}

export interface PurgeConfig {
  varnishUrls: string[];
  fastly: { serviceId: string; token: string; apiUrl: string; requestsPerSecond: number } | null;
  cloudflare: { zoneId: string; token: string; apiUrl: string; requestsPerSecond: number } | null;
  relayIntervalMs: number;
  timeoutMs: number;
}

/** Webhook delivery (docs/webhooks.md). */
export interface WebhookConfig {
  concurrency: number;
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  disableAfterMs: number;
  retentionMs: number;
  relayIntervalMs: number;
  sweepIntervalMs: number;
  /** Consecutive feed failures that send publisher.feed_failed. */
  feedFailedAfter: number;
}

export function loadWorkerConfig(source: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const env = parseEnv(workerEnvSchema, source);
  if (!isCronPattern(env.IMPORT_SCHEDULE)) {
    throw new ConfigError('IMPORT_SCHEDULE', 'is invalid: not a cron pattern (e.g. 0 * * * *)');
  }
  return {
    ...common(env),
    import: {
      schedule: env.IMPORT_SCHEDULE,
      concurrency: env.WORKER_CONCURRENCY,
      scheduleCheckMs: env.SCHEDULE_CHECK_SECONDS * 1000,
      lockMs: env.WORKER_LOCK_SECONDS * 1000,
      fetchesPerHost: env.FEED_FETCHES_PER_HOST,
      fetchesPerPublisher: env.FEED_FETCHES_PER_PUBLISHER,
    },
    metrics: { token: env.METRICS_TOKEN, port: env.WORKER_METRICS_PORT, host: env.WORKER_METRICS_HOST },
    webhooks: {
      concurrency: env.WEBHOOK_CONCURRENCY,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      maxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
      disableAfterMs: Math.round(env.WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000),
      retentionMs: env.WEBHOOK_RETENTION_DAYS * 86_400_000,
      relayIntervalMs: env.WEBHOOK_RELAY_INTERVAL_MS,
      sweepIntervalMs: env.WEBHOOK_SWEEP_INTERVAL_MS,
      feedFailedAfter: env.FEED_FAILED_WEBHOOK_AFTER,
    },
    scheduler: {
      pollMs: env.SCHEDULER_POLL_MS,
      batchSize: env.SCHEDULER_BATCH_SIZE,
      lanes: env.SCHEDULER_LANES,
    },
    audit: { retentionDays: env.AUDIT_RETENTION_DAYS ?? null },
    revisions: { draftRetentionMs: env.REVISION_DRAFT_RETENTION_DAYS * 86_400_000 },
    purge: purgeConfigOf(env),
  };
}

function purgeConfigOf(env: Static<typeof workerEnvSchema>): PurgeConfig {
  const both = (a: string | undefined, b: string | undefined, names: [string, string]) => {
    if ((a === undefined) !== (b === undefined)) {
      throw new ConfigError(
        a === undefined ? names[0] : names[1],
        `is required with ${a === undefined ? names[1] : names[0]}`,
      );
    }
    return a !== undefined && b !== undefined;
  };
  const fastly = both(env.PURGE_FASTLY_SERVICE_ID, env.PURGE_FASTLY_TOKEN, [
    'PURGE_FASTLY_SERVICE_ID',
    'PURGE_FASTLY_TOKEN',
  ]);
  const cloudflare = both(env.PURGE_CLOUDFLARE_ZONE_ID, env.PURGE_CLOUDFLARE_TOKEN, [
    'PURGE_CLOUDFLARE_ZONE_ID',
    'PURGE_CLOUDFLARE_TOKEN',
  ]);
  return {
    varnishUrls: env.PURGE_VARNISH_URLS?.split(',') ?? [],
    fastly: fastly
      ? {
          serviceId: env.PURGE_FASTLY_SERVICE_ID as string,
          token: env.PURGE_FASTLY_TOKEN as string,
          apiUrl: env.PURGE_FASTLY_API_URL,
          requestsPerSecond: env.PURGE_FASTLY_REQUESTS_PER_SECOND,
        }
      : null,
    cloudflare: cloudflare
      ? {
          zoneId: env.PURGE_CLOUDFLARE_ZONE_ID as string,
          token: env.PURGE_CLOUDFLARE_TOKEN as string,
          apiUrl: env.PURGE_CLOUDFLARE_API_URL,
          requestsPerSecond: env.PURGE_CLOUDFLARE_REQUESTS_PER_SECOND,
        }
      : null,
    relayIntervalMs: env.PURGE_RELAY_INTERVAL_MS,
    timeoutMs: env.PURGE_TIMEOUT_MS,
  };
}
