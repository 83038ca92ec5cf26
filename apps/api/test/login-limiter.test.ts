import { createRedisConnection } from '@newsroom/queue';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { loginLimits } from '../src/routes/auth/login-limiter';
import { insertAdmin } from './support/dashboard-accounts';
import { createTestApp } from './support/test-app';

// Some cases run 30-100 bcrypt comparisons: seconds on a busy 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

const { app, db, config, close } = await createTestApp();
// A second API replica: same database, same Redis and key prefix, its own connection.
const replicaRedis = createRedisConnection(config.redis.url, 'producer');
const replica = await buildApp({ config, db, redis: replicaRedis });
afterAll(async () => {
  await replica.close();
  replicaRedis.disconnect();
  await close();
});

const password = 'correct horse battery';
let address = 0;
/** A fresh client address per test, so the per-address limit only shows where a test wants it. */
const newAddress = () => `10.1.0.${++address}`;
const login = (email: string, pass: string, remoteAddress: string, target = app) =>
  target.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password: pass },
    remoteAddress,
  });

async function failTimes(n: number, email: string, remoteAddress: string, target = app) {
  for (let i = 0; i < n; i++) {
    expect((await login(email, 'wrong password!', remoteAddress, target)).statusCode).toBe(401);
  }
}

const { perEmailAndIp, perIp, perEmail } = loginLimits;

describe('login brute-force limit', () => {
  it('answers 429 with Retry-After after 5 failures for one e-mail from one address, even with the right password', async () => {
    const { email } = await insertAdmin(app, db, { password });
    const ip = newAddress();
    await failTimes(perEmailAndIp.limit, email, ip);
    const locked = await login(email, password, ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ statusCode: 429, code: 'TOO_MANY_LOGIN_ATTEMPTS' });
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(perEmailAndIp.windowMs / 1000 - 60);
    expect(retryAfter).toBeLessThanOrEqual(perEmailAndIp.windowMs / 1000);
  });

  it('does not lock the account for its owner at another address (no lockout denial of service)', async () => {
    const { email } = await insertAdmin(app, db, { password });
    const attacker = newAddress();
    await failTimes(perEmailAndIp.limit, email, attacker);
    expect((await login(email, password, attacker)).statusCode).toBe(429);
    // The attacker can repeat this all day: the owner elsewhere still gets in.
    expect((await login(email, password, newAddress())).statusCode).toBe(200);
    expect((await login(email, password, attacker)).statusCode).toBe(429);
  });

  it('counts the e-mail case-insensitively', async () => {
    const { email } = await insertAdmin(app, db, { email: 'Mixed.Case@example.com', password });
    const ip = newAddress();
    for (const variant of ['mixed.case@example.com', 'MIXED.CASE@EXAMPLE.COM', ' Mixed.Case@example.com ']) {
      await failTimes(1, variant, ip);
    }
    await failTimes(2, email, ip);
    expect((await login('mixed.case@example.com', password, ip)).statusCode).toBe(429);
  });

  it('leaves other e-mails alone', async () => {
    const locked = await insertAdmin(app, db, { password });
    const other = await insertAdmin(app, db, { password });
    const ip = newAddress();
    await failTimes(perEmailAndIp.limit, locked.email, ip);
    expect((await login(locked.email, password, ip)).statusCode).toBe(429);
    expect((await login(other.email, password, ip)).statusCode).toBe(200);
  });

  it('locks unknown e-mails too, so the limit tells nothing about which accounts exist', async () => {
    const ip = newAddress();
    await failTimes(perEmailAndIp.limit, 'ghost@example.com', ip);
    expect((await login('ghost@example.com', password, ip)).statusCode).toBe(429);
  });

  it('starts afresh after a successful login', async () => {
    const { email } = await insertAdmin(app, db, { password });
    const ip = newAddress();
    await failTimes(perEmailAndIp.limit - 1, email, ip);
    expect((await login(email, password, ip)).statusCode).toBe(200);
    await failTimes(perEmailAndIp.limit - 1, email, ip);
    expect((await login(email, password, ip)).statusCode).toBe(200);
  });

  it('holds across two API instances sharing Redis', async () => {
    const { email } = await insertAdmin(app, db, { password });
    const ip = newAddress();
    await failTimes(3, email, ip, app);
    await failTimes(2, email, ip, replica);
    const onReplica = await login(email, password, ip, replica);
    expect(onReplica.statusCode).toBe(429);
    expect(onReplica.headers['retry-after']).toBeDefined();
    expect((await login(email, password, ip, app)).statusCode).toBe(429);
  });

  it('lets at most 5 of many parallel guesses reach the password check', async () => {
    const { email } = await insertAdmin(app, db, { password });
    const ip = newAddress();
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => login(email, 'wrong password!', ip)),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(perEmailAndIp.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - perEmailAndIp.limit);
  });

  it(`caps failures from one address at ${perIp.limit}, whatever the e-mails`, async () => {
    const ip = newAddress();
    for (let i = 0; i < perIp.limit; i++) {
      expect((await login(`spray-${i}@example.com`, 'wrong password!', ip)).statusCode).toBe(401);
    }
    const admin = await insertAdmin(app, db, { password });
    const blocked = await login(admin.email, password, ip);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(admin.email, password, newAddress())).statusCode).toBe(200);
  });

  it('does not let successful logins from an address wipe its failures', async () => {
    const ip = newAddress();
    const admin = await insertAdmin(app, db, { password });
    for (let i = 0; i < perIp.limit - 1; i++) {
      await login(`other-${i}@example.com`, 'wrong password!', ip);
      if (i % 4 === 0) expect((await login(admin.email, password, ip)).statusCode).toBe(200);
    }
    await login('last@example.com', 'wrong password!', ip);
    expect((await login(admin.email, password, ip)).statusCode).toBe(429);
  });

  it(`stops guessing of one e-mail spread over many addresses after ${perEmail.limit} failures`, async () => {
    const { email } = await insertAdmin(app, db, { password });
    const addresses = Array.from({ length: perEmail.limit / perEmailAndIp.limit }, newAddress);
    // Each address stays under its own limit; together they reach the e-mail's ceiling.
    await Promise.all(addresses.map((ip) => failTimes(perEmailAndIp.limit - 1, email, ip)));
    const rest = perEmail.limit - addresses.length * (perEmailAndIp.limit - 1);
    await Promise.all(addresses.slice(0, rest).map((ip) => failTimes(1, email, ip)));
    const refused = await login(email, password, newAddress());
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(perEmail.windowMs / 1000 - 120);
    expect(retryAfter).toBeLessThanOrEqual(perEmail.windowMs / 1000);
  });
});

describe('login while Redis is down', () => {
  it('refuses logins with 503 rather than allowing unlimited guesses', async () => {
    const down = await createTestApp({ redisUrl: 'redis://127.0.0.1:1' });
    try {
      const { email } = await insertAdmin(down.app, down.db, { password });
      const response = await login(email, password, newAddress(), down.app);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ code: 'LOGIN_UNAVAILABLE' });
      expect(response.headers['retry-after']).toBeDefined();
    } finally {
      await down.close();
    }
  });
});
