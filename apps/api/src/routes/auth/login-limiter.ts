import { createHash, randomUUID } from 'node:crypto';
import type { RedisClient } from '@newsroom/queue';
import { Cluster } from 'ioredis';
import { HttpError } from '../../http-error';
import { clientAddressKey } from '../../rate-limits/client-address';

const minute = 60 * 1000;

const day = 24 * 60 * minute;

/**
 * How many failed logins are allowed, and within which sliding window, per key:
 * - perEmailAndIp: one e-mail from one client address (the lock a guesser meets);
 * - perIp: one address whatever the e-mails (credential stuffing, spraying from one host);
 * - perEmail: one e-mail from every address together, to stop distributed guessing of one account. It
 *   holds only for attempts from untrusted places: a browser with the login's device cookie or an address
 *   the login signed in from recently is not subject to it, so reaching it never locks the owner out;
 * - perDevice: attempts with one device cookie, from every address together (a stolen cookie is worth
 *   this many guesses, not the e-mail's ceiling).
 */
export const loginLimits = {
  perEmailAndIp: { limit: 5, windowMs: 15 * minute },
  perIp: { limit: 30, windowMs: 15 * minute },
  perEmail: { limit: 100, windowMs: 60 * minute },
  perDevice: { limit: 5, windowMs: 15 * minute },
};

/** How long an address a login signed in from stays trusted for that login (see perEmail). */
export const trustedAddressMs = 30 * day;

/**
 * Sliding-window log in one sorted set per key (member = attempt, score = time in ms).
 * KEYS: pair, address, e-mail, trusted-address marker, then the device key when a valid device cookie came.
 * ARGV[1] is the attempt's member, then a limit and a window for pair, address, e-mail and device.
 * The e-mail key is counted only when the attempt is untrusted (no device cookie, the address not marked).
 * Atomically: forget attempts older than each key's window; if any key is full, return how many ms
 * until its oldest counted attempt leaves the window; otherwise record this attempt under every key.
 * Redis' own clock (TIME) is used, so API replicas with skewed clocks still agree.
 */
const reserveScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local counted = { { KEYS[1], ARGV[2], ARGV[3] }, { KEYS[2], ARGV[4], ARGV[5] } }
if KEYS[5] then
  table.insert(counted, { KEYS[5], ARGV[8], ARGV[9] })
elseif redis.call('EXISTS', KEYS[4]) == 0 then
  table.insert(counted, { KEYS[3], ARGV[6], ARGV[7] })
end
local wait = 0
for _, entry in ipairs(counted) do
  local key, limit, window = entry[1], tonumber(entry[2]), tonumber(entry[3])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  if count >= limit then
    local oldest = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
    wait = math.max(wait, tonumber(oldest[2]) + window - now)
  end
end
if wait > 0 then return wait end
for _, entry in ipairs(counted) do
  redis.call('ZADD', entry[1], now, ARGV[1])
  redis.call('PEXPIRE', entry[1], tonumber(entry[3]))
end
return 0
`;

export interface LoginAttempt {
  pairKey: string;
  ipKey: string;
  emailKey: string;
  trustedAddressKey: string;
  deviceKey: string | undefined;
  member: string;
}

/**
 * Brute-force guard of the login route (and of the current-password check of a password change),
 * kept in Redis so it holds across API replicas. Failures are counted per (e-mail, address), per
 * address and per e-mail (see loginLimits), so a guesser at one address locks only itself out.
 * Every attempt is recorded before the password is checked (parallel guesses cannot slip past the
 * limit); a success then clears its (e-mail, address) record, takes itself off the other keys and marks
 * the address as trusted for the login. Addresses are counted by clientAddressKey (IPv6 per /64).
 */
export class LoginLimiter {
  constructor(
    private readonly redis: RedisClient,
    private readonly keyPrefix: string,
  ) {}

  /**
   * Records an attempt, or throws 429 (with Retry-After) when a limit is reached, 503 without Redis.
   * `ip` is the client's address (request.ip); `deviceId` the id of a valid device cookie of this e-mail.
   */
  async reserve(email: string, ip: string, deviceId?: string): Promise<LoginAttempt> {
    const digest = this.emailDigest(email);
    const address = clientAddressKey(ip);
    const attempt: LoginAttempt = {
      pairKey: `${this.keyPrefix}:login-attempts:pair:${digest}:${address}`,
      ipKey: `${this.keyPrefix}:login-attempts:ip:${address}`,
      emailKey: `${this.keyPrefix}:login-attempts:email:${digest}`,
      trustedAddressKey: `${this.keyPrefix}:login-trusted:${digest}:${address}`,
      deviceKey: deviceId ? `${this.keyPrefix}:login-attempts:device:${deviceId}` : undefined,
      member: randomUUID(),
    };
    const { perEmailAndIp, perIp, perEmail, perDevice } = loginLimits;
    const keys = [attempt.pairKey, attempt.ipKey, attempt.emailKey, attempt.trustedAddressKey];
    if (attempt.deviceKey) keys.push(attempt.deviceKey);
    let waitMs: number;
    try {
      waitMs = Number(
        await this.redis.eval(
          reserveScript,
          keys.length,
          ...keys,
          attempt.member,
          perEmailAndIp.limit,
          perEmailAndIp.windowMs,
          perIp.limit,
          perIp.windowMs,
          perEmail.limit,
          perEmail.windowMs,
          perDevice.limit,
          perDevice.windowMs,
        ),
      );
    } catch {
      // Without the limiter there would be no bound on guesses: refuse logins until Redis is back.
      throw new HttpError(503, 'LOGIN_UNAVAILABLE', 'Login is temporarily unavailable, try again shortly', {
        'retry-after': '30',
      });
    }
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new HttpError(
        429,
        'TOO_MANY_LOGIN_ATTEMPTS',
        `Too many failed logins, try again in ${seconds} seconds`,
        { 'retry-after': String(seconds) },
      );
    }
    return attempt;
  }

  /**
   * After a successful check: the (e-mail, address) pair starts afresh; the address, the e-mail and the
   * device keep their other failures (a success of one's own must not wipe an attacker's count). The
   * address is trusted for this e-mail for trustedAddressMs from now (see loginLimits.perEmail).
   */
  async succeeded(attempt: LoginAttempt): Promise<void> {
    const transaction = this.redis
      .multi()
      .del(attempt.pairKey)
      .zrem(attempt.ipKey, attempt.member)
      .zrem(attempt.emailKey, attempt.member)
      .set(attempt.trustedAddressKey, '1', 'PX', trustedAddressMs);
    if (attempt.deviceKey) transaction.zrem(attempt.deviceKey, attempt.member);
    await transaction.exec();
  }

  /** Forgets every failure counted for an e-mail, from any address (an administrator reset its password). */
  async clearEmail(email: string): Promise<void> {
    const digest = this.emailDigest(email);
    const keys = [`${this.keyPrefix}:login-attempts:email:${digest}`];
    // SCAN walks one server: on a cluster, every master (the keys share one hash tag, so one of them has them all).
    const servers = this.redis instanceof Cluster ? this.redis.nodes('master') : [this.redis];
    for (const server of servers) {
      const pairs = server.scanStream({
        match: `${this.keyPrefix}:login-attempts:pair:${digest}:*`,
        count: 1000,
      });
      for await (const found of pairs) keys.push(...(found as string[]));
    }
    await this.redis.del(...keys);
  }

  // Hashed: no e-mail addresses in Redis, and a bounded key length whatever the input.
  private emailDigest(email: string): string {
    return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  }
}
