import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { HttpError } from '../../http-error';

/** How many failed logins are allowed inside the sliding window, per e-mail and per client address. */
export const loginLimits = {
  windowMs: 15 * 60 * 1000,
  perEmail: 5,
  perIp: 30,
};

/**
 * Sliding-window log in one sorted set per key (member = attempt, score = time in ms).
 * Atomically: forget attempts older than the window; if any key is full, return how many ms until
 * its oldest counted attempt leaves the window; otherwise record this attempt under every key.
 * Redis' own clock (TIME) is used, so API replicas with skewed clocks still agree.
 */
const reserveScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local wait = 0
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local limit = tonumber(ARGV[i + 2])
  local count = redis.call('ZCARD', key)
  if count >= limit then
    local oldest = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
    wait = math.max(wait, tonumber(oldest[2]) + window - now)
  end
end
if wait > 0 then return wait end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[2])
  redis.call('PEXPIRE', key, window)
end
return 0
`;

export interface LoginAttempt {
  emailKey: string;
  ipKey: string;
  member: string;
}

/**
 * Brute-force guard of the login route, kept in Redis so it holds across API replicas.
 * Every attempt is recorded before the password is checked (so parallel guesses cannot slip
 * past the limit); a success then clears the e-mail's record and takes itself off the address's.
 */
export class LoginLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  /** Records an attempt, or throws 429 (with Retry-After) when the e-mail or address is locked, 503 without Redis. */
  async reserve(email: string, ip: string): Promise<LoginAttempt> {
    // Hashed: no e-mail addresses in Redis, and a bounded key length whatever the input.
    const emailDigest = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
    const attempt = {
      emailKey: `${this.keyPrefix}:login-attempts:email:${emailDigest}`,
      ipKey: `${this.keyPrefix}:login-attempts:ip:${ip}`,
      member: randomUUID(),
    };
    let waitMs: number;
    try {
      waitMs = Number(
        await this.redis.eval(
          reserveScript,
          2,
          attempt.emailKey,
          attempt.ipKey,
          loginLimits.windowMs,
          attempt.member,
          loginLimits.perEmail,
          loginLimits.perIp,
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

  /** After a successful login: the e-mail starts afresh; the address keeps only its failures. */
  async succeeded(attempt: LoginAttempt): Promise<void> {
    await this.redis.multi().del(attempt.emailKey).zrem(attempt.ipKey, attempt.member).exec();
  }
}
