import { Redis, type RedisOptions } from 'ioredis';

/**
 * Redis connections by role (BullMQ's production guide):
 * - `worker`: blocking commands must wait through reconnects, so requests never give up (maxRetriesPerRequest null).
 * - `producer`: the API must fail fast when Redis is down (a 503), not queue commands in memory.
 */
export type RedisRole = 'worker' | 'producer';

export function createRedisConnection(url: string, role: RedisRole, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    ...(role === 'worker'
      ? { maxRetriesPerRequest: null }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 }),
    lazyConnect: false,
    ...options,
  });
  // Without a listener an unreachable Redis would crash the process with an unhandled 'error' event.
  redis.on('error', () => {});
  return redis;
}
