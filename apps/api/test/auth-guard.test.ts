import { createHmac } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { requireRole } from '../src/plugins/auth';
import { createTestApp } from './support/test-app';

const { app, db, config, close } = await createTestApp();
afterAll(close);

app.register(async (admin) => {
  admin.addHook('onRequest', requireRole('admin'));
  admin.get('/guarded/admin', async (request) => ({ id: request.user.id }));
});
app.register(async (publisher) => {
  publisher.addHook('onRequest', requireRole('publisher'));
  publisher.get('/guarded/publisher', async (request) => ({ id: request.user.id }));
});

const admin = await db
  .insertInto('users')
  .values({ email: 'admin@example.com', password_hash: 'x', role: 'admin' })
  .returning('id')
  .executeTakeFirstOrThrow();
const publisherRecord = await db
  .insertInto('publishers')
  .values({ name: 'Daily Planet' })
  .returning('id')
  .executeTakeFirstOrThrow();
const publisher = await db
  .insertInto('users')
  .values({
    email: 'desk@planet.example',
    password_hash: 'x',
    role: 'publisher',
    publisher_id: publisherRecord.id,
  })
  .returning('id')
  .executeTakeFirstOrThrow();

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A hand-made JWT, to forge what a library would refuse to produce. */
function forge(header: object, claims: object, secret = config.jwt.secret): string {
  const unsigned = `${b64(header)}.${b64(claims)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}
const now = () => Math.floor(Date.now() / 1000);
const validClaims = (sub: string) => ({
  sub,
  iss: 'newsroom',
  aud: 'newsroom-dashboard',
  iat: now(),
  exp: now() + 60,
});

const get = (url: string, token?: string) =>
  app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('dashboard token guard', () => {
  it('lets an administrator through to administrator routes', async () => {
    const response = await get('/guarded/admin', app.issueToken({ id: admin.id }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: admin.id });
  });

  it('refuses a missing token with 401', async () => {
    const response = await get('/guarded/admin');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses a publisher on an administrator route with 403, and the reverse', async () => {
    expect((await get('/guarded/admin', app.issueToken({ id: publisher.id }))).statusCode).toBe(403);
    expect((await get('/guarded/publisher', app.issueToken({ id: admin.id }))).statusCode).toBe(403);
    expect((await get('/guarded/publisher', app.issueToken({ id: publisher.id }))).statusCode).toBe(200);
  });

  it.each([
    ['alg none', () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(validClaims(admin.id))}.`],
    ['a wrong secret', () => forge({ alg: 'HS256', typ: 'JWT' }, validClaims(admin.id), 'not-the-secret')],
    ['another algorithm', () => forge({ alg: 'HS512', typ: 'JWT' }, validClaims(admin.id))],
    [
      'an expired token',
      () => forge({ alg: 'HS256', typ: 'JWT' }, { ...validClaims(admin.id), exp: now() - 10 }),
    ],
    [
      'a wrong audience',
      () => forge({ alg: 'HS256', typ: 'JWT' }, { ...validClaims(admin.id), aud: 'other' }),
    ],
    ['a wrong issuer', () => forge({ alg: 'HS256', typ: 'JWT' }, { ...validClaims(admin.id), iss: 'other' })],
    [
      'no expiry',
      () =>
        forge({ alg: 'HS256', typ: 'JWT' }, { sub: admin.id, iss: 'newsroom', aud: 'newsroom-dashboard' }),
    ],
    ['a subject that is not an id', () => forge({ alg: 'HS256', typ: 'JWT' }, validClaims('admin'))],
    ['garbage', () => 'not.a.jwt'],
  ])('refuses %s with 401', async (_name, token) => {
    const response = await get('/guarded/admin', token());
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHORIZED');
  });

  it('accepts a correctly forged-by-us token (the forging helper is sound)', async () => {
    expect(
      (await get('/guarded/admin', forge({ alg: 'HS256', typ: 'JWT' }, validClaims(admin.id)))).statusCode,
    ).toBe(200);
  });

  it('refuses existing tokens once the account or its publisher is disabled', async () => {
    const token = app.issueToken({ id: publisher.id });
    await db
      .updateTable('publishers')
      .set({ disabled_at: new Date() })
      .where('id', '=', publisherRecord.id)
      .execute();
    expect((await get('/guarded/publisher', token)).statusCode).toBe(401);
    await db
      .updateTable('publishers')
      .set({ disabled_at: null })
      .where('id', '=', publisherRecord.id)
      .execute();
    expect((await get('/guarded/publisher', token)).statusCode).toBe(200);
    await db.updateTable('users').set({ disabled_at: new Date() }).where('id', '=', publisher.id).execute();
    expect((await get('/guarded/publisher', token)).statusCode).toBe(401);
  });

  it('refuses a deleted account', async () => {
    const doomed = await db
      .insertInto('users')
      .values({ email: 'gone@example.com', password_hash: 'x', role: 'admin' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = app.issueToken({ id: doomed.id });
    await db.deleteFrom('users').where('id', '=', doomed.id).execute();
    expect((await get('/guarded/admin', token)).statusCode).toBe(401);
  });
});
