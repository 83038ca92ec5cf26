import { afterAll, describe, expect, it, vi } from 'vitest';
import { loginLimits } from '../src/routes/auth/login-limiter';
import { insertAdmin, insertPublisher } from './support/dashboard-accounts';
import { createTestApp } from './support/test-app';

// A distributed lockout of the administrator: twenty addresses behind the trusted proxy send five wrong
// passwords each and fill the e-mail's hourly ceiling. Brute-force protection stays (a stranger's address is
// refused), but the owner's browser (device cookie) and an address it signed in from recently still get in.

// Each case runs ~100 bcrypt checks (cost 10): seconds on a busy 2-core machine.
vi.setConfig({ testTimeout: 120_000 });

const { app, db, close } = await createTestApp({ env: { TRUST_PROXY: 'true' } });
afterAll(close);

const password = 'correct horse battery';
const { perEmailAndIp, perEmail, perDevice } = loginLimits;
let counter = 0;
const newAddress = () => `10.9.${Math.floor(++counter / 250)}.${counter % 250}`;

/** A sign-in through the proxy: the client's address in X-Forwarded-For, its cookies if it has any. */
const signIn = (email: string, pass: string, ip: string, cookie?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/auth/session',
    payload: { email, password: pass },
    headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) },
  });

const deviceCookieOf = (response: Awaited<ReturnType<typeof signIn>>) => {
  const device = response.cookies.find((c) => c.name.startsWith('newsroom_device'));
  if (!device) throw new Error(`no device cookie in ${JSON.stringify(response.cookies)}`);
  return device;
};

/** Twenty attacker addresses, five wrong passwords each: the e-mail's ceiling is reached. */
async function lockOutByTwentyAddresses(email: string) {
  const attackers = Array.from({ length: perEmail.limit / perEmailAndIp.limit }, newAddress);
  expect(attackers).toHaveLength(20);
  for (const ip of attackers) {
    for (let i = 0; i < perEmailAndIp.limit; i++) {
      expect((await signIn(email, 'wrong password!', ip)).statusCode).toBe(401);
    }
  }
  const stranger = await signIn(email, password, newAddress());
  expect(stranger.statusCode).toBe(429);
  expect(Number(stranger.headers['retry-after'])).toBeGreaterThan(perEmail.windowMs / 1000 - 300);
}

describe('distributed lockout of one e-mail (twenty addresses through TRUST_PROXY)', () => {
  it('lets the owner in from a browser that signed in before, and from an address that did recently', async () => {
    const admin = await insertAdmin(app, db, { password });
    const home = newAddress();
    const first = await signIn(admin.email, password, home);
    expect(first.statusCode).toBe(200);
    const device = deviceCookieOf(first);
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/v1/auth' });
    expect(device.value).not.toContain(admin.email);

    await lockOutByTwentyAddresses(admin.email);

    // The browser with its device cookie, now on a new address (a train, a hotel): in.
    const travelling = await signIn(admin.email, password, newAddress(), `${device.name}=${device.value}`);
    expect(travelling.statusCode).toBe(200);
    // The address it signed in from, without the cookie (another browser at home): in.
    expect((await signIn(admin.email, password, home)).statusCode).toBe(200);
    // Anyone else is still held at the ceiling, the right password included.
    expect((await signIn(admin.email, password, newAddress())).statusCode).toBe(429);
  });

  it('trusts a device cookie only for the login it was issued to, and only as signed', async () => {
    const admin = await insertAdmin(app, db, { password });
    const other = await insertPublisher(app, db, { password, approved: true });
    const otherDevice = deviceCookieOf(await signIn(other.email, password, newAddress()));
    const ownDevice = deviceCookieOf(await signIn(admin.email, password, newAddress()));
    await lockOutByTwentyAddresses(admin.email);

    // Another login's cookie, renamed to look like the administrator's: not trusted.
    const borrowed = `${ownDevice.name}=${otherDevice.value}`;
    expect((await signIn(admin.email, password, newAddress(), borrowed)).statusCode).toBe(429);
    // A tampered signature: not trusted.
    const tampered = `${ownDevice.name}=${ownDevice.value.slice(0, -2)}xx`;
    expect((await signIn(admin.email, password, newAddress(), tampered)).statusCode).toBe(429);
  });

  it(`bounds the guesses made with one device cookie to ${perDevice.limit}, from however many addresses`, async () => {
    const admin = await insertAdmin(app, db, { password });
    const device = deviceCookieOf(await signIn(admin.email, password, newAddress()));
    const cookie = `${device.name}=${device.value}`;
    await lockOutByTwentyAddresses(admin.email);
    for (let i = 0; i < perDevice.limit; i++) {
      expect((await signIn(admin.email, 'wrong password!', newAddress(), cookie)).statusCode).toBe(401);
    }
    expect((await signIn(admin.email, password, newAddress(), cookie)).statusCode).toBe(429);
  });
});

describe('IPv6 client addresses', () => {
  it('counts failures per /64, as the API-key limit does', async () => {
    const admin = await insertAdmin(app, db, { password });
    for (let i = 1; i <= perEmailAndIp.limit; i++) {
      const ip = `2001:db8:77:1::${i.toString(16)}`;
      expect((await signIn(admin.email, 'wrong password!', ip)).statusCode).toBe(401);
    }
    // Another address of the same /64: the same counter, already full.
    expect((await signIn(admin.email, password, '2001:db8:77:1:ffff:1:2:3')).statusCode).toBe(429);
    // The next /64 is someone else.
    expect((await signIn(admin.email, password, '2001:db8:77:2::1')).statusCode).toBe(200);
  });
});
