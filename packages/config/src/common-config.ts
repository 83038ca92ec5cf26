import { type Static, type TObject, Type } from 'typebox';
import { BooleanFlag, ConfigError, flagValue } from './parse-env';
import { type RedisConfig, redisConfigOf, redisVariables } from './redis-config';
import { Milliseconds, Url } from './setting-types';

// Variables grouped by who reads them. .env.example documents the union.
export const commonVariables = {
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info' },
  ),
  DATABASE_URL: Url('postgres://user:password@host:5432/database'),
  DATABASE_DIRECT_URL: Type.Optional(
    Url(
      'a direct Postgres connection (not through a transaction-mode pooler) for what needs a session: LISTEN; default DATABASE_URL',
    ),
  ),
  DATABASE_POOL_SIZE: Type.Integer({
    default: 10,
    minimum: 1,
    maximum: 100,
    description: 'Postgres connections per process; about 2x the database host cores',
  }),
  DATABASE_CONNECT_TIMEOUT_MS: Milliseconds(3_000, 'wait for a pooled Postgres connection or a new one', 100),
  DATABASE_STATEMENT_TIMEOUT_MS: Milliseconds(
    5_000,
    'Postgres cancels a statement running longer (0: never)',
  ),
  DATABASE_QUERY_TIMEOUT_MS: Milliseconds(
    6_000,
    'a query with no answer this long fails and its connection is dropped (0: never); above the statement timeout',
  ),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: Milliseconds(
    60_000,
    'Postgres ends a session idle inside an open transaction this long (0: never)',
  ),
  DATABASE_PREPARED_STATEMENTS: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    default: 'on',
    description:
      'named prepared statements for the hottest reads; on needs session pooling (off behind PgBouncer in transaction mode)',
  }),
  ...redisVariables,
  FEED_ALLOW_PRIVATE_ADDRESSES: BooleanFlag(
    false,
    'development and tests only: fetch feeds from private addresses',
  ),
  FEED_USER_AGENT: Type.String({
    default: 'NewsroomFeedFetcher/1.0 (+https://github.com/newsroom)',
    minLength: 1,
    maxLength: 200,
    pattern: '^[ -~]+$',
    description: 'User-Agent of every feed fetch: name the service and a URL publishers can read about it',
  }),
  // Image renditions (issue 32), signed by the API's answers and the worker's webhook payloads: all three or none.
  IMGPROXY_URL: Type.Optional(Url('where browsers reach imgproxy, e.g. https://img.example.com')),
  IMGPROXY_KEY: Type.Optional(
    Type.String({ pattern: '^([0-9a-fA-F]{2})+$', description: 'hex-encoded key' }),
  ),
  IMGPROXY_SALT: Type.Optional(
    Type.String({ pattern: '^([0-9a-fA-F]{2})+$', description: 'hex-encoded salt' }),
  ),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      pattern: '^[!-~]+$',
      description: 'bearer token of the /metrics scrapes, at least 16 printable ASCII characters',
    }),
  ),
};

/** Every wait on Postgres is bounded (0: that bound is off). */
export interface DatabaseTimeouts {
  /** Waiting for a pooled connection, or for a new one to connect. */
  connectMs: number;
  /** Server side: Postgres cancels a statement running longer (statement_timeout). */
  statementMs: number;
  /** Client side: a round trip with no answer this long fails, and its connection is discarded. */
  queryMs: number;
  /** Server side: idle_in_transaction_session_timeout. */
  idleInTransactionMs: number;
}

export interface CommonConfig {
  env: 'development' | 'production' | 'test';
  logLevel: string;
  databaseUrl: string;
  /** A session-capable connection (LISTEN): DATABASE_DIRECT_URL, or DATABASE_URL when there is no pooler. */
  databaseDirectUrl: string;
  databasePoolSize: number;
  databaseTimeouts: DatabaseTimeouts;
  /** Named prepared statements for the hottest reads; needs session pooling when on. */
  databasePreparedStatements: boolean;
  redis: RedisConfig;
  feeds: { allowPrivateAddresses: boolean; userAgent: string };
  /** Bearer token of the metrics scrapes; undefined: no metrics are served. */
  metrics: { token: string | undefined };
  /** imgproxy for image renditions (issue 32); undefined: renditions are off. */
  imgproxy: { baseUrl: string; keyHex: string; saltHex: string } | undefined;
}

/** The variables every process reads, as parsed by its own schema. */
type CommonEnv = Static<TObject<typeof commonVariables>>;

function databaseTimeoutsOf(env: CommonEnv) {
  const timeouts: DatabaseTimeouts = {
    connectMs: env.DATABASE_CONNECT_TIMEOUT_MS,
    statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    queryMs: env.DATABASE_QUERY_TIMEOUT_MS,
    idleInTransactionMs: env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  };
  // A healthy but slow statement must get Postgres's own cancellation, not lose its connection client-side.
  const { statementMs, queryMs } = timeouts;
  if (queryMs > 0 && (statementMs === 0 || queryMs <= statementMs)) {
    throw new ConfigError('DATABASE_QUERY_TIMEOUT_MS', 'must be above DATABASE_STATEMENT_TIMEOUT_MS (or 0)');
  }
  return timeouts;
}

/** The configuration every process shares, from its parsed variables. */
export function common(env: CommonEnv): CommonConfig {
  return {
    env: env.NODE_ENV,
    logLevel: env.LOG_LEVEL,
    databaseUrl: env.DATABASE_URL,
    databaseDirectUrl: env.DATABASE_DIRECT_URL ?? env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    databaseTimeouts: databaseTimeoutsOf(env),
    databasePreparedStatements: env.DATABASE_PREPARED_STATEMENTS === 'on',
    redis: redisConfigOf(env),
    feeds: {
      allowPrivateAddresses: flagValue(env.FEED_ALLOW_PRIVATE_ADDRESSES),
      userAgent: env.FEED_USER_AGENT,
    },
    metrics: { token: env.METRICS_TOKEN },
    imgproxy:
      env.IMGPROXY_URL && env.IMGPROXY_KEY && env.IMGPROXY_SALT
        ? { baseUrl: env.IMGPROXY_URL, keyHex: env.IMGPROXY_KEY, saltHex: env.IMGPROXY_SALT }
        : undefined,
  };
}
