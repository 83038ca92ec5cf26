import bcrypt from 'bcryptjs';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, insertAdmin, insertPublisher } from './support/dashboard-accounts';
import { createTestApp } from './support/test-app';

const { app, db, close } = await createTestApp();
afterAll(close);

const password = 'correct horse battery';
const admin = await insertAdmin(app, db, { email: 'Chief@Example.com', password });
const publisher = await insertPublisher(app, db, { email: 'desk@planet.example', password });

let address = 0;
/** Each login comes from its own address, so the per-address limit never links two tests. */
const login = (body: object) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: body,
    remoteAddress: `10.0.0.${++address}`,
  });

describe('POST /api/v1/auth/login', () => {
  it('returns a token and the administrator, without publisherId', async () => {
    const response = await login({ email: 'Chief@Example.com', password });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toEqual({ id: admin.id, email: 'Chief@Example.com', role: 'admin' });
    const me = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(body.token) });
    expect(me.json()).toEqual(body.user);
  });

  it('matches the e-mail case-insensitively and ignores surrounding spaces', async () => {
    expect((await login({ email: '  chief@EXAMPLE.com ', password })).statusCode).toBe(200);
  });

  it('returns a publisher with its publisherId', async () => {
    const response = await login({ email: 'desk@planet.example', password });
    expect(response.json().user).toEqual({
      id: publisher.id,
      email: 'desk@planet.example',
      role: 'publisher',
      publisherId: publisher.publisherId,
    });
  });

  it('answers a wrong password and an unknown e-mail with the same 401 body', async () => {
    const wrongPassword = await login({ email: 'chief@example.com', password: 'not the password' });
    const unknownEmail = await login({ email: 'nobody@example.com', password });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.body).toBe(unknownEmail.body);
    expect(wrongPassword.json()).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: 'Wrong e-mail or password',
    });
  });

  it('refuses a password that only matches on its first 72 bytes', async () => {
    const long = `${'p'.repeat(72)}`;
    await insertAdmin(app, db, { email: 'long@example.com', password: long });
    expect((await login({ email: 'long@example.com', password: long })).statusCode).toBe(200);
    expect((await login({ email: 'long@example.com', password: `${long}extra` })).statusCode).toBe(401);
  });

  it('refuses a disabled login and a disabled publisher with the same 401, and their tokens too', async () => {
    const disabledUser = await insertPublisher(app, db, { password });
    await db
      .updateTable('users')
      .set({ disabled_at: new Date() })
      .where('id', '=', disabledUser.id)
      .execute();
    const disabledPublisher = await insertPublisher(app, db, { password });
    await db
      .updateTable('publishers')
      .set({ disabled_at: new Date() })
      .where('id', '=', disabledPublisher.publisherId)
      .execute();
    const reference = await login({ email: 'nobody@example.com', password });
    for (const account of [disabledUser, disabledPublisher]) {
      const response = await login({ email: account.email, password });
      expect(response.statusCode).toBe(401);
      expect(response.body).toBe(reference.body);
      const me = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(account.token) });
      expect(me.statusCode).toBe(401);
    }
  });

  it.each([
    ['no body', undefined],
    ['a missing password', { email: 'chief@example.com' }],
    ['an unknown property', { email: 'chief@example.com', password, remember: true }],
    ['an over-long e-mail', { email: `${'a'.repeat(250)}@example.com`, password }],
  ])('refuses %s with 400', async (_name, body) => {
    const response = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: body });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toMatch(/VALIDATION_ERROR|INVALID_JSON/);
  });

  it('upgrades a hash made at a lower cost on the next successful login', async () => {
    const weak = await insertAdmin(app, db, { email: 'weak@example.com' });
    await db
      .updateTable('users')
      .set({ password_hash: await bcrypt.hash(password, 4) })
      .where('id', '=', weak.id)
      .execute();
    expect((await login({ email: 'weak@example.com', password })).statusCode).toBe(200);
    const { password_hash } = await db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', weak.id)
      .executeTakeFirstOrThrow();
    expect(bcrypt.getRounds(password_hash)).toBe(app.passwords.cost);
    expect(await bcrypt.compare(password, password_hash)).toBe(true);
  });
});

describe('GET /api/v1/auth/me', () => {
  it('returns the publisher behind a publisher token', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: bearer(publisher.token),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: publisher.id, role: 'publisher' });
  });

  it('refuses a request without a token with 401', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/auth/me' });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHORIZED');
  });
});
