import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';

/**
 * Redis connections by role (BullMQ's production guide):
 * - `worker`: blocking commands must wait through reconnects, so requests never give up (maxRetriesPerRequest null).
 * - `producer`: the API must fail fast when Redis is down (a 503), not queue commands in memory; and when
 *   Redis is hung (connected but silent), a command fails after `producerCommandTimeoutMs` instead of waiting.
 */
export type RedisRole = 'worker' | 'producer';

/** One Redis server or a Redis Cluster: every use of Redis in the processes works on both. */
export type RedisClient = Redis | Cluster;

/** Where Redis is (config.redis): one server at `url`, or a cluster seeded by `clusterNodes`. */
export interface RedisTarget {
  url: string;
  clusterNodes?: readonly string[] | undefined;
}

/** How long the API waits for any one Redis command before it fails (and the route answers 503). */
export const producerCommandTimeoutMs = 2_000;

function roleOptions(role: RedisRole): RedisOptions {
  return role === 'worker'
    ? { maxRetriesPerRequest: null }
    : { maxRetriesPerRequest: 1, connectTimeout: 2_000, commandTimeout: producerCommandTimeoutMs };
}

/**
 * A Redis Cluster client from seed nodes `redis://[user:password@]host:port` (`rediss://` for TLS): credentials and
 * TLS of the first node apply to every node the client discovers.
 */
function createClusterConnection(nodes: readonly string[], role: RedisRole, options: RedisOptions): Cluster {
  const seeds = nodes.map((node) => new URL(node));
  const [first] = seeds;
  if (!first) throw new Error('a Redis Cluster needs at least one seed node');
  const clusterOptions: ClusterOptions = {
    enableOfflineQueue: role === 'worker',
    lazyConnect: options.lazyConnect ?? false,
    // A caller that gives up on a server (create-admin: one attempt) gives up on the cluster too.
    ...(options.retryStrategy ? { clusterRetryStrategy: options.retryStrategy } : {}),
    redisOptions: {
      ...roleOptions(role),
      ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
      ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
      ...(first.protocol === 'rediss:' ? { tls: {} } : {}),
      ...options,
    },
  };
  return new Cluster(
    seeds.map((seed) => ({ host: seed.hostname, port: Number(seed.port) })),
    clusterOptions,
  );
}

/**
 * A connection to `target` (a URL: one server) for `role`. A target with cluster nodes gives an ioredis Cluster;
 * its keys must then carry one hash tag (config.redis.queuePrefix does) for BullMQ and the multi-key scripts.
 */
export function createRedisConnection(url: string, role: RedisRole, options?: RedisOptions): Redis;
export function createRedisConnection(
  target: string | RedisTarget,
  role: RedisRole,
  options?: RedisOptions,
): RedisClient;
export function createRedisConnection(
  target: string | RedisTarget,
  role: RedisRole,
  options: RedisOptions = {},
): RedisClient {
  const { url, clusterNodes } =
    typeof target === 'string' ? { url: target, clusterNodes: undefined } : target;
  const redis = clusterNodes?.length
    ? createClusterConnection(clusterNodes, role, options)
    : new Redis(url, {
        ...roleOptions(role),
        ...(role === 'producer' ? { enableOfflineQueue: false } : {}),
        lazyConnect: false,
        ...options,
      });
  // Without a listener an unreachable Redis would crash the process with an unhandled 'error' event.
  redis.on('error', () => {});
  return redis;
}
