import { afterAll, describe, expect, it, vi } from 'vitest';
import { loginLimits } from '../src/routes/auth/login-limiter';
import { bearer, insertAdmin, insertPublisher } from './support/dashboard-accounts';
import { createTestApp } from './support/test-app';

// Each case runs a few bcrypt hashes and comparisons: seconds on a busy 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

const { app, db, close } = await createTestApp();
afterAll(close);

const oldPassword = 'the old password, long';
const newPassword = 'the new password, longer';
const unknownId = '00000000-0000-4000-8000-000000000000';
let address = 0;
const newAddress = () => `10.2.0.${++address}`;

const login = (email: string, password: string, remoteAddress = newAddress()) =>
  app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress });
const me = (token: string) => app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(token) });
const changeOwn = (token: string, payload: object, remoteAddress = newAddress()) =>
  app.inject({ method: 'PUT', url: '/api/v1/auth/password', headers: bearer(token), payload, remoteAddress });
const resetPublisher = (token: string, publisherId: string, payload: object) =>
  app.inject({
    method: 'PUT',
    url: `/api/v1/publisher/${publisherId}/password`,
    headers: bearer(token),
    payload,
  });

describe('PUT /api/v1/auth/password', () => {
  it('changes the password: 204, the new one logs in, the old one and every older token stop working', async () => {
    const admin = await insertAdmin(app, db, { password: oldPassword });
    const otherSession = (await login(admin.email, oldPassword)).json().token as string;
    const response = await changeOwn(admin.token, { currentPassword: oldPassword, newPassword });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await login(admin.email, oldPassword)).statusCode).toBe(401);
    const fresh = await login(admin.email, newPassword);
    expect(fresh.statusCode).toBe(200);
    expect((await me(admin.token)).statusCode).toBe(401);
    expect((await me(otherSession)).statusCode).toBe(401);
    expect((await me(fresh.json().token)).statusCode).toBe(200);
  });

  it("keeps the dashboard session that changed it; ends the same login's other sessions and every token", async () => {
    const admin = await insertAdmin(app, db, { password: oldPassword });
    const signIn = async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/session',
        payload: { email: admin.email, password: oldPassword },
        remoteAddress: newAddress(),
      });
      expect(response.statusCode).toBe(200);
      const cookie = response.cookies.find((c) => c.name === 'newsroom_session');
      return { cookie: `newsroom_session=${cookie?.value}`, 'x-csrf-token': response.json().csrfToken };
    };
    const here = await signIn();
    const otherTab = await signIn();
    const otherToken = (await login(admin.email, oldPassword)).json().token as string;
    const change = await app.inject({
      method: 'PUT',
      url: '/api/v1/auth/password',
      headers: here,
      payload: { currentPassword: oldPassword, newPassword },
      remoteAddress: newAddress(),
    });
    expect(change.statusCode).toBe(204);
    // The person who changed it stays signed in, with the same CSRF token (nothing to reload).
    const stillHere = await app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: here });
    expect(stillHere.statusCode).toBe(200);
    expect(stillHere.json().csrfToken).toBe(here['x-csrf-token']);
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: otherTab })).statusCode,
    ).toBe(401);
    expect((await me(otherToken)).statusCode).toBe(401);
    expect((await me(admin.token)).statusCode).toBe(401);
  });

  it('works for a publisher too', async () => {
    const publisher = await insertPublisher(app, db, { password: oldPassword, approved: true });
    expect((await changeOwn(publisher.token, { currentPassword: oldPassword, newPassword })).statusCode).toBe(
      204,
    );
    expect((await login(publisher.email, newPassword)).statusCode).toBe(200);
  });

  it('refuses a wrong current password with 401 INVALID_CREDENTIALS and changes nothing', async () => {
    const admin = await insertAdmin(app, db, { password: oldPassword });
    const response = await changeOwn(admin.token, { currentPassword: 'not the password', newPassword });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect((await me(admin.token)).statusCode).toBe(200);
    expect((await login(admin.email, oldPassword)).statusCode).toBe(200);
  });

  it('counts wrong current passwords as failed logins (a stolen token cannot guess freely)', async () => {
    const admin = await insertAdmin(app, db, { password: oldPassword });
    const ip = newAddress();
    for (let i = 0; i < loginLimits.perEmailAndIp.limit; i++) {
      expect(
        (await changeOwn(admin.token, { currentPassword: 'a wrong guess!', newPassword }, ip)).statusCode,
      ).toBe(401);
    }
    const locked = await changeOwn(admin.token, { currentPassword: oldPassword, newPassword }, ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
  });

  it.each([
    [
      'a new password under 12 characters',
      { currentPassword: oldPassword, newPassword: 'short' },
      'PASSWORD_TOO_SHORT',
    ],
    [
      'a new password over 72 bytes',
      { currentPassword: oldPassword, newPassword: 'é'.repeat(40) },
      'PASSWORD_TOO_LONG',
    ],
    ['a missing current password', { newPassword }, 'VALIDATION_ERROR'],
    ['an extra property', { currentPassword: oldPassword, newPassword, email: 'x@y.z' }, 'VALIDATION_ERROR'],
  ])('refuses %s with 400', async (_name, body, code) => {
    const admin = await insertAdmin(app, db, { password: oldPassword });
    const response = await changeOwn(admin.token, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe(code);
    expect((await login(admin.email, oldPassword)).statusCode).toBe(200);
  });

  it('needs a token', async () => {
    const response = await app.inject({
      method: 'PUT',
      url: '/api/v1/auth/password',
      payload: { currentPassword: oldPassword, newPassword },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHORIZED');
  });
});

const admin = await insertAdmin(app, db);

describe('PUT /api/v1/publisher/:id/password', () => {
  it("sets a publisher's password: 204, the new one logs in, its older tokens stop working", async () => {
    const publisher = await insertPublisher(app, db, { password: oldPassword, approved: true });
    const response = await resetPublisher(admin.token, publisher.publisherId, { password: newPassword });
    expect(response.statusCode).toBe(204);
    expect((await me(publisher.token)).statusCode).toBe(401);
    expect((await login(publisher.email, oldPassword)).statusCode).toBe(401);
    expect((await login(publisher.email, newPassword)).statusCode).toBe(200);
    expect((await me(admin.token)).statusCode).toBe(200);
  });

  it('lets a publisher locked out at its own address log in with the new password at once', async () => {
    const publisher = await insertPublisher(app, db, { password: oldPassword, approved: true });
    const ip = newAddress();
    for (let i = 0; i < loginLimits.perEmailAndIp.limit; i++) {
      expect((await login(publisher.email, 'forgotten password', ip)).statusCode).toBe(401);
    }
    expect((await login(publisher.email, oldPassword, ip)).statusCode).toBe(429);
    expect(
      (await resetPublisher(admin.token, publisher.publisherId, { password: newPassword })).statusCode,
    ).toBe(204);
    expect((await login(publisher.email, newPassword, ip)).statusCode).toBe(200);
  });

  it.each([
    ['under 12 characters', { password: 'short' }, 'PASSWORD_TOO_SHORT'],
    ['over 72 bytes', { password: 'é'.repeat(40) }, 'PASSWORD_TOO_LONG'],
    ['with an extra property', { password: newPassword, role: 'admin' }, 'VALIDATION_ERROR'],
  ])('refuses a password %s with 400', async (_name, body, code) => {
    const publisher = await insertPublisher(app, db, { password: oldPassword });
    const response = await resetPublisher(admin.token, publisher.publisherId, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe(code);
    expect((await login(publisher.email, oldPassword)).statusCode).toBe(200);
  });

  it('answers 404 PUBLISHER_NOT_FOUND for an unknown publisher', async () => {
    const response = await resetPublisher(admin.token, unknownId, { password: newPassword });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('PUBLISHER_NOT_FOUND');
  });

  it('is for administrators only', async () => {
    const publisher = await insertPublisher(app, db, { password: oldPassword });
    const response = await resetPublisher(publisher.token, publisher.publisherId, { password: newPassword });
    expect(response.statusCode).toBe(403);
    expect((await login(publisher.email, oldPassword)).statusCode).toBe(200);
  });
});
