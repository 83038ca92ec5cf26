import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisClient } from '@newsroom/queue';

/**
 * Takes a lease if fewer than ARGV[1] unexpired leases are held on the host, or if the token ARGV[3]
 * already holds one (renewed): 0 when taken, else the milliseconds until the earliest lease expires.
 * Times come from the Redis server's clock, so replicas on hosts with skewed clocks agree on what has
 * expired.
 */
const acquireScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[3]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
  return 0
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(first[2]) - now)
`;

/** A fetch slot held on one host; release() gives it back (an unreleased one expires by itself). */
export interface HostLease {
  release(): Promise<void>;
}

export interface HostSlots {
  /**
   * A slot on `host`, waiting at most `waitMs` for one to free up (polling with growing pauses, never
   * a busy loop); undefined when none freed up in time. `holder` names the lease (default: random): a
   * holder that already has a lease on `host` gets it back, e.g. a job run again after its worker died.
   */
  acquire(host: string, waitMs: number, holder?: string): Promise<HostLease | undefined>;
}

export interface HostSlotsOptions {
  connection: RedisClient;
  /** Key prefix (the queue prefix): `<prefix>:<namespace>:<host>`. */
  prefix: string;
  /**
   * What the slots are counted per: `feed-host` (the default: per feed host) or `feed-publisher` (the same
   * mechanism per publisher id, so one publisher's jobs never hold more than their share of the workers).
   */
  namespace?: string;
  /** Leases per host at once, across every process sharing the Redis (FEED_FETCHES_PER_HOST). */
  perHost: number;
  /** A lease expires this long after it was taken: longer than a fetch can last (its deadline). */
  leaseMs: number;
}

const firstPauseMs = 25;
const maxPauseMs = 500;

/**
 * A counting semaphore per host in Redis, shared by every worker replica: a sorted set of lease tokens
 * scored by their expiry. A crashed worker's lease expires after `leaseMs`, so it never holds a slot
 * for good.
 */
export function createHostSlots(options: HostSlotsOptions): HostSlots {
  const { connection, prefix, perHost, leaseMs, namespace = 'feed-host' } = options;
  const keyOf = (host: string) => `${prefix}:${namespace}:${host.toLowerCase()}`;
  return {
    async acquire(host, waitMs, holder) {
      const key = keyOf(host);
      const token = holder ?? randomUUID();
      const deadline = Date.now() + waitMs;
      for (let pause = firstPauseMs; ; pause = Math.min(pause * 2, maxPauseMs)) {
        const untilFree = Number(await connection.eval(acquireScript, 1, key, perHost, leaseMs, token));
        if (untilFree === 0) {
          return { release: () => connection.zrem(key, token).then(() => undefined) };
        }
        const left = deadline - Date.now();
        if (left <= 0) return undefined;
        // Jitter spreads waiting jobs (and replicas) so they do not ask again in step.
        await sleep(Math.min(left, untilFree, pause * (0.5 + Math.random())));
      }
    },
  };
}

/** The host whose slots a fetch of `url` takes (lower case, without port); undefined for a malformed URL. */
export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}
