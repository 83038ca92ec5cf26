import { Type } from 'typebox';
import { ConfigError } from './parse-env';

/** Where the processes find Redis: one server (`url`), or a Redis Cluster seeded by `clusterNodes`. */
export interface RedisConfig {
  url: string;
  /**
   * The seed nodes of a Redis Cluster (`redis://[user:password@]host:port`, TLS with `rediss://`); undefined: one
   * server at `url`. The client learns every other node from them.
   */
  clusterNodes: string[] | undefined;
  /**
   * The first part of every key the processes write. On a cluster it is the hash tag `{QUEUE_PREFIX}`, so every key
   * (each BullMQ queue's, the login limiter's, the rate limits') hashes to one slot and the multi-key scripts
   * and transactions stay legal.
   */
  queuePrefix: string;
}

export const redisVariables = {
  REDIS_URL: Type.String({ default: 'redis://127.0.0.1:6379', pattern: '^rediss?://' }),
  REDIS_CLUSTER_NODES: Type.Optional(
    Type.String({
      pattern: '^rediss?://[^,\\s]+(,rediss?://[^,\\s]+)*$',
      description:
        'a Redis Cluster instead of REDIS_URL: comma-separated seed nodes, redis://[user:password@]host:port',
    }),
  ),
  QUEUE_PREFIX: Type.String({ default: 'newsroom', pattern: '^[a-zA-Z0-9_-]+$' }),
};

export function redisConfigOf(env: {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: string;
  QUEUE_PREFIX: string;
}) {
  const clusterNodes = env.REDIS_CLUSTER_NODES?.split(',');
  for (const node of clusterNodes ?? []) {
    const parsed = URL.canParse(node) ? new URL(node) : undefined;
    if (!parsed?.hostname || !parsed.port) {
      throw new ConfigError('REDIS_CLUSTER_NODES', `${node} is not redis://host:port`);
    }
  }
  const config: RedisConfig = {
    url: env.REDIS_URL,
    clusterNodes,
    queuePrefix: clusterNodes ? `{${env.QUEUE_PREFIX}}` : env.QUEUE_PREFIX,
  };
  return config;
}
