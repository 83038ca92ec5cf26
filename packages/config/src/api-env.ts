import { Type } from 'typebox';
import { commonVariables } from './common-config';
import {
  BcryptCost,
  Duration,
  Milliseconds,
  RateLimitSetting,
  SearchLanguage,
  ShutdownDrainMs,
  Url,
} from './setting-types';

/** The API's environment variables: names, types, bounds, defaults and what each does (read by api-config.ts). */
export const apiEnvSchema = Type.Object({
  ...commonVariables,
  PORT: Type.Integer({ minimum: 1, maximum: 65535, description: 'HTTP port of the API' }),
  DATABASE_REPLICA_URL: Type.Optional(
    Url('a streaming replica of the primary for the client content reads (docs/deployment.md); default none'),
  ),
  DATABASE_REPLICA_MAX_LAG_MS: Milliseconds(
    1_000,
    'a client read waits this long at most for the replica to replay what the primary had committed, then reads the primary',
    1,
  ),
  DATABASE_REPLICA_PROBE_MS: Milliseconds(
    1_000,
    'how often the replica is probed (and the bound of one probe); down, client reads go to the primary',
    50,
  ),
  HOST: Type.String({ default: '127.0.0.1', description: 'address the API listens on' }),
  REQUEST_LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    {
      default: 'info',
      description: 'level of the one line logged per request (written when LOG_LEVEL lets it through)',
    },
  ),
  API_KEY: Type.String({ minLength: 16, description: 'network-wide client API key, at least 16 characters' }),
  JWT_SECRET: Type.String({ minLength: 32, description: 'dashboard token secret, at least 32 characters' }),
  JWT_EXPIRES_IN: Type.String({ default: '12h', pattern: '^[0-9]+[smhd]$', description: 'e.g. 12h, 30m' }),
  SESSION_IDLE_TIMEOUT: Duration('2h', 'a dashboard session ends after this long unused, e.g. 2h'),
  SESSION_MAX_AGE: Duration('12h', 'a dashboard session ends this long after sign-in, e.g. 12h'),
  DASHBOARD_DIST: Type.String({
    default: 'apps/dashboard/dist',
    description: 'folder of the built dashboard served at the site root (relative to the working directory)',
  }),
  STORAGE_ACCESS_KEY_ID: Type.Optional(Type.String()),
  STORAGE_SECRET_ACCESS_KEY: Type.Optional(Type.String()),
  STORAGE_REGION: Type.Optional(Type.String()),
  STORAGE_BUCKET: Type.Optional(Type.String()),
  STORAGE_ENDPOINT: Type.Optional(Url('S3-compatible endpoint, e.g. http://127.0.0.1:9000')),
  STORAGE_PUBLIC_URL: Type.Optional(Url('public base URL of stored files; defaults to endpoint/bucket')),
  ADMIN_EMAIL: Type.Optional(
    Type.String({ pattern: '^[^@\\s]+@[^@\\s]+$', description: 'an e-mail address' }),
  ),
  ADMIN_PASSWORD: Type.Optional(Type.String({ minLength: 12, description: 'at least 12 characters' })),
  BCRYPT_COST: BcryptCost,
  TRUST_PROXY: Type.String({
    default: 'false',
    pattern: '^(true|false|[0-9]+|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$',
    description: 'false, true, a hop count, or comma-separated proxy addresses/CIDRs',
  }),
  HTTP_REQUEST_TIMEOUT_MS: Milliseconds(30_000, 'time to receive a whole request, headers and body'),
  HTTP_CONNECTION_TIMEOUT_MS: Milliseconds(
    60_000,
    'a connection with no traffic either way this long is closed',
  ),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Milliseconds(72_000, 'an idle keep-alive connection is closed after this long'),
  SHUTDOWN_DRAIN_MS: ShutdownDrainMs,
  CLIENT_CACHE_MAX_AGE: Type.Integer({ default: 60, minimum: 0, description: 'seconds' }),
  CLIENT_CACHE_STALE_WHILE_REVALIDATE: Type.Integer({
    default: 300,
    minimum: 0,
    description: 'seconds an HTTP cache may serve a stale client response while it revalidates',
  }),
  CLIENT_PUBLIC_MAX_AGE: Type.Integer({
    default: 30,
    minimum: 0,
    description: 'seconds a browser keeps an answer to a publishable key (Cache-Control max-age)',
  }),
  CLIENT_PUBLIC_S_MAXAGE: Type.Integer({
    default: 3600,
    minimum: 0,
    description: 'seconds a CDN keeps an answer to a publishable key (s-maxage); purges end it sooner',
  }),
  CLIENT_PUBLIC_STALE_WHILE_REVALIDATE: Type.Integer({
    default: 60,
    minimum: 0,
    description: 'seconds a cache may serve a stale answer to a publishable key while it revalidates',
  }),
  SEARCH_LANGUAGE: SearchLanguage,
  CLIENT_CACHE: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    default: 'on',
    description: 'in-process response cache of the client routes (off: every read goes to Postgres)',
  }),
  CLIENT_ARTICLE_CACHE_MB: Type.Integer({
    default: 32,
    minimum: 0,
    maximum: 4096,
    description: 'MiB of serialised article JSON reused by uncached page reads (0: off)',
  }),
  CLIENT_CHANGES_RETENTION_DAYS: Type.Integer({
    default: 30,
    minimum: 1,
    maximum: 3650,
    description: 'days the change feed (/client/changes) keeps changes; older cursors answer 410',
  }),
  RATE_LIMIT_API_KEY_FAILURES: RateLimitSetting('20/1m', 'wrong client API keys per client address'),
  RATE_LIMIT_TEST_FEED: RateLimitSetting('10/1m', 'feed previews per dashboard user'),
  RATE_LIMIT_PASSWORD_RESET_IP: RateLimitSetting('10/1h', '"forgot password" requests per client address'),
  RATE_LIMIT_PASSWORD_RESET_EMAIL: RateLimitSetting(
    '3/1h',
    'reset e-mails sent per address (more requests get the same answer, and no e-mail)',
  ),
  SMTP_URL: Type.Optional(
    Type.String({
      pattern: '^smtps?://',
      description: 'outgoing mail, e.g. smtp://user:pass@mail.example:587 (unset: development outbox only)',
    }),
  ),
  MAIL_FROM: Type.String({
    default: 'Newsroom <no-reply@newsroom.invalid>',
    description: 'From of every e-mail',
  }),
  DASHBOARD_URL: Type.Optional(
    Url('public address of the dashboard, for links in e-mails (default http://127.0.0.1:PORT)'),
  ),
  RATE_LIMIT_FEED_URL_CHANGES: RateLimitSetting(
    '5/1h',
    'feed address changes per publisher (each queues a fetch of the new address)',
  ),
  RATE_LIMIT_CLIENT_ALL: RateLimitSetting('10/1m', 'GET /client/all per API key'),
  RATE_LIMIT_CLIENT: RateLimitSetting('off', 'the other client routes per API key'),
  FEED_PREVIEW_MAX_BYTES: Type.Integer({
    default: 2 * 1024 * 1024,
    minimum: 64 * 1024,
    maximum: 15 * 1024 * 1024,
    description: 'bytes of a feed a test-feed preview reads at most (the feed is cut there, not refused)',
  }),
  FEED_PREVIEW_CONCURRENCY: Type.Integer({
    default: 4,
    minimum: 1,
    maximum: 64,
    description: 'test-feed previews running at once per API process; more get 503 with Retry-After',
  }),
  FEED_PREVIEW_CONCURRENCY_PER_USER: Type.Integer({
    default: 1,
    minimum: 1,
    maximum: 64,
    description:
      "test-feed previews one dashboard user runs at once, within FEED_PREVIEW_CONCURRENCY; more get 429 (one user cannot take everyone's slots)",
  }),
});
