import { Redis, type RedisOptions } from 'ioredis';

/**
 * Redis connections by role (BullMQ's production guide):
 * - `worker`: blocking commands must wait through reconnects, so requests never give up (maxRetriesPerRequest null).
 * - `producer`: the API must fail fast when Redis is down (a 503), not queue commands in memory; and when
 *   Redis is hung (connected but silent), a command fails after `producerCommandTimeoutMs` instead of waiting.
 */
export type RedisRole = 'worker' | 'producer';

/** How long the API waits for any one Redis command before it fails (and the route answers 503). */
export const producerCommandTimeoutMs = 2_000;

export function createRedisConnection(url: string, role: RedisRole, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    ...(role === 'worker'
      ? { maxRetriesPerRequest: null }
      : {
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
          connectTimeout: 2_000,
          commandTimeout: producerCommandTimeoutMs,
        }),
    lazyConnect: false,
    ...options,
  });
  // Without a listener an unreachable Redis would crash the process with an unhandled 'error' event.
  redis.on('error', () => {});
  return redis;
}
