import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { HttpError } from '../../http-error';

const minute = 60 * 1000;

/**
 * How many failed logins are allowed, and within which sliding window, per key:
 * - perEmailAndIp: one e-mail from one client address (the lock a guesser meets);
 * - perIp: one address whatever the e-mails (credential stuffing, spraying from one host);
 * - perEmail: one e-mail from every address together, high enough that failures elsewhere cannot
 *   lock its owner out in normal life, low enough to stop distributed guessing of one account.
 */
export const loginLimits = {
  perEmailAndIp: { limit: 5, windowMs: 15 * minute },
  perIp: { limit: 30, windowMs: 15 * minute },
  perEmail: { limit: 100, windowMs: 60 * minute },
};

/**
 * Sliding-window log in one sorted set per key (member = attempt, score = time in ms).
 * ARGV[1] is the attempt's member, then a limit and a window per key.
 * Atomically: forget attempts older than each key's window; if any key is full, return how many ms
 * until its oldest counted attempt leaves the window; otherwise record this attempt under every key.
 * Redis' own clock (TIME) is used, so API replicas with skewed clocks still agree.
 */
const reserveScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local wait = 0
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[i * 2])
  local window = tonumber(ARGV[i * 2 + 1])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  if count >= limit then
    local oldest = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
    wait = math.max(wait, tonumber(oldest[2]) + window - now)
  end
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[1])
  redis.call('PEXPIRE', key, tonumber(ARGV[i * 2 + 1]))
end
return 0
`;

export interface LoginAttempt {
  pairKey: string;
  ipKey: string;
  emailKey: string;
  member: string;
}

/**
 * Brute-force guard of the login route (and of the current-password check of a password change),
 * kept in Redis so it holds across API replicas. Failures are counted per (e-mail, address), per
 * address and per e-mail (see loginLimits), so a guesser at one address locks only itself out.
 * Every attempt is recorded before the password is checked (parallel guesses cannot slip past the
 * limit); a success then clears its (e-mail, address) record and takes itself off the other two.
 */
export class LoginLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  /** Records an attempt, or throws 429 (with Retry-After) when a limit is reached, 503 without Redis. */
  async reserve(email: string, ip: string): Promise<LoginAttempt> {
    const digest = this.emailDigest(email);
    const attempt = {
      pairKey: `${this.keyPrefix}:login-attempts:pair:${digest}:${ip}`,
      ipKey: `${this.keyPrefix}:login-attempts:ip:${ip}`,
      emailKey: `${this.keyPrefix}:login-attempts:email:${digest}`,
      member: randomUUID(),
    };
    const { perEmailAndIp, perIp, perEmail } = loginLimits;
    let waitMs: number;
    try {
      waitMs = Number(
        await this.redis.eval(
          reserveScript,
          3,
          attempt.pairKey,
          attempt.ipKey,
          attempt.emailKey,
          attempt.member,
          perEmailAndIp.limit,
          perEmailAndIp.windowMs,
          perIp.limit,
          perIp.windowMs,
          perEmail.limit,
          perEmail.windowMs,
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
   * After a successful check: the (e-mail, address) pair starts afresh; the address and the e-mail
   * keep their other failures (a success of one's own must not wipe an attacker's count).
   */
  async succeeded(attempt: LoginAttempt): Promise<void> {
    await this.redis
      .multi()
      .del(attempt.pairKey)
      .zrem(attempt.ipKey, attempt.member)
      .zrem(attempt.emailKey, attempt.member)
      .exec();
  }

  /** Forgets every failure counted for an e-mail, from any address (an administrator reset its password). */
  async clearEmail(email: string): Promise<void> {
    const digest = this.emailDigest(email);
    const keys = [`${this.keyPrefix}:login-attempts:email:${digest}`];
    const pairs = this.redis.scanStream({
      match: `${this.keyPrefix}:login-attempts:pair:${digest}:*`,
      count: 1000,
    });
    for await (const found of pairs) keys.push(...(found as string[]));
    await this.redis.del(...keys);
  }

  // Hashed: no e-mail addresses in Redis, and a bounded key length whatever the input.
  private emailDigest(email: string): string {
    return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  }
}
