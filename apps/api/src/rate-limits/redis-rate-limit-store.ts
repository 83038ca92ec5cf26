import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { RedisClient } from '@newsroom/queue';
import { withDeadline } from '../with-deadline';

/**
 * Fixed window in one Redis key per (bucket, key): INCR, and the window's expiry set by the request that
 * opens it. The PTTL guard re-arms a key that lost its expiry, so no counter can live forever.
 */
const incrementScript = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

const commandName = 'newsroomRateLimitIncrement';
type WithIncrement = RedisClient & {
  [commandName](key: string, windowMs: number): Promise<[number, number]>;
};

/** What a limit's options carry for the store: the bucket its counters live in (one per limit). */
export interface BucketOptions {
  bucket?: string;
}

export interface RedisRateLimitStoreOptions {
  redis: RedisClient;
  /** Key prefix of the deployment (QUEUE_PREFIX), so test files and deployments never share counters. */
  keyPrefix: string;
  /** How long a count may take before the limit is skipped (a hung Redis must not hang requests). */
  timeoutMs: number;
  /** Told when a count fails (Redis down or slow); the limit is then skipped for that request. */
  onError(error: Error): void;
}

/**
 * The store class @fastify/rate-limit instantiates, bound to our Redis connection. Unlike the plugin's own
 * Redis store, it names keys by bucket (so two routes can share one limit), answers at once while Redis is
 * not connected, and bounds every count with a deadline. Errors reach the plugin, whose `skipOnError` lets
 * the request through.
 */
export function redisRateLimitStore(options: RedisRateLimitStoreOptions) {
  const redis = options.redis as WithIncrement;
  if (typeof redis[commandName] !== 'function') {
    // EVALSHA with a fallback to EVAL: the script is sent once per connection, not per request.
    redis.defineCommand(commandName, { numberOfKeys: 1, lua: incrementScript });
  }
  const unavailable = () =>
    new Error('rate limit store unavailable: RedisClient is not connected or too slow');

  return class RedisRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;

    // The plugin passes its merged options (ours included) to the constructor and to child().
    constructor(params: object = {}) {
      this.prefix = `${options.keyPrefix}:rate-limit:${(params as BucketOptions).bucket ?? 'default'}:`;
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      if (redis.status !== 'ready') {
        const error = unavailable();
        options.onError(error);
        callback(error);
        return;
      }
      withDeadline(redis[commandName](this.prefix + key, timeWindow), options.timeoutMs, unavailable).then(
        ([current, ttl]) => callback(null, { current, ttl }),
        (error: Error) => {
          options.onError(error);
          callback(error);
        },
      );
    }

    child(routeOptions: object): FastifyRateLimitStore {
      return new RedisRateLimitStore(routeOptions);
    }
  };
}
