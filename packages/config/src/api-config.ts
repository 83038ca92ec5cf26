import { resolve } from 'node:path';
import type { Static } from 'typebox';
import { apiEnvSchema } from './api-env';
import { type CommonConfig, common } from './common-config';
import { ConfigError, parseEnv } from './parse-env';
import {
  bcryptCostOf,
  durationMs,
  type RateLimit,
  rateLimitOf,
  shutdownDrainMsOf,
  trustProxyOf,
} from './setting-types';

export interface StorageConfig {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  bucket: string;
  endpoint: string | undefined;
  publicUrl: string | undefined;
}

/** The API's typed configuration; after boot nothing reads process.env. */
export interface ApiConfig extends CommonConfig {
  port: number;
  host: string;
  /** Level of the one line logged per answered request ('silent': none). */
  requestLogLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  apiKey: string;
  jwt: { secret: string; expiresIn: string };
  /** Dashboard cookie sessions: ended after `idleMs` unused or `maxAgeMs` after sign-in. */
  session: { idleMs: number; maxAgeMs: number };
  /** Absolute path of the built dashboard (served at the site root when it exists). */
  dashboardDist: string;
  /** undefined when uploads are not configured: the signing route answers 503 then. */
  storage: StorageConfig | undefined;
  /**
   * A streaming replica the client content reads go to (DATABASE_REPLICA_URL); null: everything reads the
   * primary. Its pool has the primary's size and timeouts.
   */
  replica: { url: string; maxLagMs: number; probeMs: number } | null;
  admin: { email: string; password: string } | undefined;
  /**
   * Outgoing mail (invitations, password resets). smtpUrl undefined: development shows each message in the log
   * and at /dev/outbox; production refuses to send (503 naming SMTP_URL).
   */
  mail: { smtpUrl: string | undefined; from: string; dashboardUrl: string };
  /** bcrypt work factor for new password hashes (verification reads the cost stored in each hash). */
  bcryptCost: number;
  /** Fastify's trustProxy: which X-Forwarded-For hops to believe for request.ip (login limiter). */
  trustProxy: boolean | number | string;
  /** Fastify's connectionTimeout, requestTimeout and keepAliveTimeout, ms (0: off). */
  http: { connectionTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  /**
   * After SIGTERM: how long /ready answers 503 while requests are still served, so load balancers stop
   * sending before the listener closes (ms; 0: close at once).
   */
  shutdownDrainMs: number;
  client: {
    /** Cache-Control max-age of client responses, seconds. */
    cacheMaxAge: number;
    /** Cache-Control stale-while-revalidate of client responses, seconds. */
    staleWhileRevalidate: number;
    /** Cache-Control of answers to publishable keys (public: CDNs keep them, purged by surrogate key), seconds. */
    shared: { maxAge: number; sMaxAge: number; staleWhileRevalidate: number };
    /** Whether client responses are kept in memory between content changes. */
    responseCache: boolean;
    /** Bytes of serialised article JSON kept by article version (0: none). */
    articleCacheBytes: number;
    /** Postgres text search configuration the search vectors and queries use (applied at boot). */
    searchLanguage: string;
  };
  /** The change feed (GET /client/changes). */
  changeFeed: {
    /** Days changes are kept; the API prunes older ones. */
    retentionDays: number;
  };
  /** Limits kept in Redis (shared by replicas); null: off. */
  rateLimits: {
    /** Wrong client API keys per client address. */
    apiKeyFailures: RateLimit | null;
    /** Feed previews (both test-feed routes) per dashboard user. */
    testFeed: RateLimit | null;
    /** "Forgot password" per client address, and reset e-mails per address. */
    passwordResetPerIp: RateLimit | null;
    passwordResetPerEmail: RateLimit | null;
    /** New feed addresses saved per publisher (each queues a first import). */
    feedUrlChanges: RateLimit | null;
    /** GET /client/all per API key. */
    clientAll: RateLimit | null;
    /** The other client routes per API key: off by default (a Redis round trip per cached read). */
    client: RateLimit | null;
  };
  /** Limits of the test-feed preview. */
  feedPreview: {
    /** Bytes of the feed body read at most. */
    maxBytes: number;
    /** Previews at once in this process. */
    concurrency: number;
    /** Previews at once per dashboard user, within `concurrency`. */
    concurrencyPerUser: number;
  };
}

/** The settings uploads need, all four together (STORAGE_ENDPOINT and STORAGE_PUBLIC_URL are optional). */
export const storageVariables = [
  'STORAGE_ACCESS_KEY_ID',
  'STORAGE_SECRET_ACCESS_KEY',
  'STORAGE_REGION',
  'STORAGE_BUCKET',
] as const;

function storageFrom(env: Static<typeof apiEnvSchema>): StorageConfig | undefined {
  const missing = storageVariables.filter((name) => env[name] === undefined);
  if (missing.length === storageVariables.length) return undefined;
  const [firstMissing] = missing;
  if (firstMissing) throw new ConfigError(firstMissing, 'is required when any STORAGE_* variable is set');
  return {
    accessKeyId: env.STORAGE_ACCESS_KEY_ID as string,
    secretAccessKey: env.STORAGE_SECRET_ACCESS_KEY as string,
    region: env.STORAGE_REGION as string,
    bucket: env.STORAGE_BUCKET as string,
    endpoint: env.STORAGE_ENDPOINT,
    publicUrl: env.STORAGE_PUBLIC_URL,
  };
}

function sessionFrom(env: Static<typeof apiEnvSchema>): ApiConfig['session'] {
  const idleMs = durationMs(env.SESSION_IDLE_TIMEOUT);
  const maxAgeMs = durationMs(env.SESSION_MAX_AGE);
  if (idleMs > maxAgeMs)
    throw new ConfigError('SESSION_IDLE_TIMEOUT', 'must not be longer than SESSION_MAX_AGE');
  return { idleMs, maxAgeMs };
}

/** Reads and validates the API's configuration once; throws ConfigError naming the first bad variable. */
export function loadApiConfig(source: NodeJS.ProcessEnv = process.env): ApiConfig {
  const env = parseEnv(apiEnvSchema, source);
  if ((env.ADMIN_EMAIL === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError(env.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL', 'is required with its pair');
  }
  return {
    ...common(env),
    port: env.PORT,
    host: env.HOST,
    requestLogLevel: env.REQUEST_LOG_LEVEL as ApiConfig['requestLogLevel'],
    apiKey: env.API_KEY,
    jwt: { secret: env.JWT_SECRET, expiresIn: env.JWT_EXPIRES_IN },
    session: sessionFrom(env),
    dashboardDist: resolve(env.DASHBOARD_DIST),
    storage: storageFrom(env),
    replica: env.DATABASE_REPLICA_URL
      ? {
          url: env.DATABASE_REPLICA_URL,
          maxLagMs: env.DATABASE_REPLICA_MAX_LAG_MS,
          probeMs: env.DATABASE_REPLICA_PROBE_MS,
        }
      : null,
    admin:
      env.ADMIN_EMAIL && env.ADMIN_PASSWORD
        ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }
        : undefined,
    mail: {
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM,
      dashboardUrl: (env.DASHBOARD_URL ?? `http://127.0.0.1:${env.PORT}`).replace(/\/+$/, ''),
    },
    bcryptCost: bcryptCostOf(env),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    http: {
      connectionTimeoutMs: env.HTTP_CONNECTION_TIMEOUT_MS,
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    shutdownDrainMs: shutdownDrainMsOf(env),
    client: {
      cacheMaxAge: env.CLIENT_CACHE_MAX_AGE,
      staleWhileRevalidate: env.CLIENT_CACHE_STALE_WHILE_REVALIDATE,
      shared: {
        maxAge: env.CLIENT_PUBLIC_MAX_AGE,
        sMaxAge: env.CLIENT_PUBLIC_S_MAXAGE,
        staleWhileRevalidate: env.CLIENT_PUBLIC_STALE_WHILE_REVALIDATE,
      },
      responseCache: env.CLIENT_CACHE === 'on',
      articleCacheBytes: env.CLIENT_ARTICLE_CACHE_MB * 1024 * 1024,
      searchLanguage: env.SEARCH_LANGUAGE,
    },
    changeFeed: { retentionDays: env.CLIENT_CHANGES_RETENTION_DAYS },
    rateLimits: {
      apiKeyFailures: rateLimitOf(env.RATE_LIMIT_API_KEY_FAILURES),
      testFeed: rateLimitOf(env.RATE_LIMIT_TEST_FEED),
      passwordResetPerIp: rateLimitOf(env.RATE_LIMIT_PASSWORD_RESET_IP),
      passwordResetPerEmail: rateLimitOf(env.RATE_LIMIT_PASSWORD_RESET_EMAIL),
      feedUrlChanges: rateLimitOf(env.RATE_LIMIT_FEED_URL_CHANGES),
      clientAll: rateLimitOf(env.RATE_LIMIT_CLIENT_ALL),
      client: rateLimitOf(env.RATE_LIMIT_CLIENT),
    },
    feedPreview: {
      maxBytes: env.FEED_PREVIEW_MAX_BYTES,
      concurrency: env.FEED_PREVIEW_CONCURRENCY,
      concurrencyPerUser: env.FEED_PREVIEW_CONCURRENCY_PER_USER,
    },
  };
}
