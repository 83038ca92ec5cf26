import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loginLimits } from '../src/routes/auth/login-limiter';
import { bearer, insertAdmin } from './support/dashboard-accounts';
import { createTestApp } from './support/test-app';

// `pnpm admin:create --reset-password` against a live API: the reset ends every session and token of
// the administrator, and forgets the failed logins counted for its e-mail (the way out of a lockout).

// Each case starts a tsx process (1-3 s) and runs up to ~100 bcrypt checks on a busy 2-core machine.
vi.setConfig({ testTimeout: 90_000 });

const root = resolve(import.meta.dirname, '../../..');
const tsx = resolve(root, 'node_modules/.bin/tsx');
const { app, db, databaseUrl, config, close } = await createTestApp({ env: { TRUST_PROXY: 'true' } });
afterAll(close);

const password = 'correct horse battery';

/** Runs the CLI with the API's database, Redis and key prefix, as an operator on that deployment would. */
async function resetPassword(email: string, newPassword: string) {
  const child = spawn(
    tsx,
    [resolve(root, 'apps/api/src/cli/create-admin.ts'), '--email', email, '--reset-password'],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        DATABASE_URL: databaseUrl,
        REDIS_URL: config.redis.url,
        QUEUE_PREFIX: config.redis.queuePrefix,
      },
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  child.stdin.end(`${newPassword}\n`);
  const [code] = await once(child, 'exit');
  return { code: code as number, output };
}

let address = 0;
const newAddress = () => `10.7.0.${++address}`;

const signIn = (email: string, pass: string, ip = newAddress()) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/auth/session',
    payload: { email, password: pass },
    headers: { 'x-forwarded-for': ip },
  });

describe('pnpm admin:create --reset-password', () => {
  it('ends the administrator’s live cookie sessions and tokens', async () => {
    const admin = await insertAdmin(app, db, { password });
    const signedIn = await signIn(admin.email, password);
    expect(signedIn.statusCode).toBe(200);
    const session = signedIn.cookies.find((c) => c.name === 'newsroom_session');
    const cookie = `newsroom_session=${session?.value}`;
    const readSession = () => app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
    expect((await readSession()).statusCode).toBe(200);

    const reset = await resetPassword(admin.email, 'a brand new password');
    expect(reset).toMatchObject({ code: 0, output: expect.stringContaining('replaced') });

    expect((await readSession()).statusCode).toBe(401);
    const me = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(admin.token) });
    expect(me.statusCode).toBe(401);
    expect((await signIn(admin.email, 'a brand new password')).statusCode).toBe(200);
  });

  it('forgets the failed logins counted for the e-mail, so a locked-out administrator gets in', async () => {
    const admin = await insertAdmin(app, db, { password });
    const { perEmail, perEmailAndIp } = loginLimits;
    const attackers = Array.from({ length: perEmail.limit / perEmailAndIp.limit }, newAddress);
    for (const ip of attackers) {
      for (let i = 0; i < perEmailAndIp.limit; i++) {
        expect((await signIn(admin.email, 'wrong password!', ip)).statusCode).toBe(401);
      }
    }
    // The ceiling is reached: a stranger's address with the right password is refused.
    expect((await signIn(admin.email, password)).statusCode).toBe(429);

    expect((await resetPassword(admin.email, 'the reset password')).code).toBe(0);
    expect((await signIn(admin.email, 'the reset password')).statusCode).toBe(200);
    // The attackers' own addresses start afresh too (their pair counters were the e-mail's).
    expect((await signIn(admin.email, 'wrong password!', attackers[0])).statusCode).toBe(401);
  });
});
