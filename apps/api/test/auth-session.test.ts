import { afterAll, describe, expect, it } from 'vitest';
import { bearer, insertAdmin, insertPublisher } from './support/dashboard-accounts';
import { createTestApp } from './support/test-app';

const { app, db, close } = await createTestApp();
afterAll(close);

const password = 'correct horse battery';
const admin = await insertAdmin(app, db, { email: 'editor@example.com', password });
const publisher = await insertPublisher(app, db, { email: 'desk@planet.example', password });

let address = 0;
/** Each sign-in comes from its own address, so the per-address limit never links two tests. */
const signIn = (body: object, remoteAddress = `10.1.0.${++address}`) =>
  app.inject({ method: 'POST', url: '/api/v1/auth/session', payload: body, remoteAddress });

async function session(email = 'editor@example.com') {
  const response = await signIn({ email, password });
  expect(response.statusCode).toBe(200);
  const cookie = response.cookies.find((c) => c.name === 'newsroom_session');
  if (!cookie) throw new Error('no session cookie');
  return { cookie: `${cookie.name}=${cookie.value}`, csrfToken: response.json().csrfToken as string };
}

const readSession = (cookie?: string) =>
  app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: cookie ? { cookie } : {} });

describe('POST /api/v1/auth/session', () => {
  it('answers the user and a CSRF token and sets an HttpOnly, SameSite=Strict session cookie on /', async () => {
    const response = await signIn({ email: 'Editor@Example.com', password });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toEqual({ id: admin.id, email: 'editor@example.com', role: 'admin' });
    expect(body.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body).not.toHaveProperty('token');
    const [cookie] = response.cookies;
    expect(cookie).toMatchObject({ name: 'newsroom_session', path: '/', httpOnly: true, sameSite: 'Strict' });
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Bounded by the maximum lifetime (12 h by default).
    const expires = new Date(cookie?.expires ?? 0).getTime();
    expect(expires).toBeGreaterThan(Date.now() + 11 * 3600_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 12 * 3600_000 + 1000);
  });

  it('stores only a hash of the cookie token', async () => {
    const { cookie } = await session();
    const token = cookie.split('=')[1] as string;
    const rows = await db.selectFrom('dashboard_sessions').select('token_hash').execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.token_hash.toString('utf8')).not.toContain(token);
  });

  it('refuses wrong credentials with the login route body and sets no cookie', async () => {
    const wrong = await signIn({ email: 'editor@example.com', password: 'not the password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Wrong e-mail or password' });
    expect(wrong.cookies).toEqual([]);
    const viaLogin = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'editor@example.com', password: 'not the password' },
      remoteAddress: `10.1.0.${++address}`,
    });
    expect(viaLogin.body).toBe(wrong.body);
  });

  it('shares the login limiter with POST /auth/login', async () => {
    const victim = await insertAdmin(app, db, { email: 'limited@example.com', password });
    for (let i = 0; i < 5; i++) {
      const failed = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: victim.email, password: 'wrong password' },
        remoteAddress: '10.2.0.9',
      });
      expect(failed.statusCode).toBe(401);
    }
    // Counted per (e-mail, address): the same address is refused on the session route too.
    const locked = await signIn({ email: victim.email, password }, '10.2.0.9');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: 'TOO_MANY_LOGIN_ATTEMPTS' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses a form post (no cross-site login): JSON only', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/session',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=editor%40example.com&password=${encodeURIComponent(password)}`,
    });
    expect(response.statusCode).toBe(415);
    expect(response.cookies).toEqual([]);
  });
});

describe('GET /api/v1/auth/session', () => {
  it('answers the user and the same CSRF token for a live session cookie', async () => {
    const { cookie, csrfToken } = await session('desk@planet.example');
    const response = await readSession(cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: {
        id: publisher.id,
        email: 'desk@planet.example',
        role: 'publisher',
        publisherId: publisher.publisherId,
      },
      csrfToken,
    });
  });

  it('answers 401 UNAUTHORIZED without a cookie, with an unknown one, or with a bearer token only', async () => {
    for (const response of [
      await readSession(),
      await readSession('newsroom_session=not-a-session'),
      await app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: bearer(admin.token) }),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('ends a session idle for longer than the idle timeout (2 h)', async () => {
    const { cookie } = await session();
    const idle = new Date(Date.now() - 2 * 3600_000 - 1000);
    await db.updateTable('dashboard_sessions').set({ last_seen_at: idle }).execute();
    expect((await readSession(cookie)).statusCode).toBe(401);
  });

  it('ends a session at its absolute end, however busy', async () => {
    const { cookie } = await session();
    await db
      .updateTable('dashboard_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    expect((await readSession(cookie)).statusCode).toBe(401);
  });

  it('pushes the idle timeout back when the session is used (at most once a minute)', async () => {
    const { cookie } = await session();
    const token = cookie.split('=')[1] as string;
    const hash = (await import('node:crypto')).createHash('sha256').update(token).digest();
    const anHourAgo = new Date(Date.now() - 3600_000);
    await db
      .updateTable('dashboard_sessions')
      .set({ last_seen_at: anHourAgo })
      .where('token_hash', '=', hash)
      .execute();
    expect((await readSession(cookie)).statusCode).toBe(200);
    const row = await db
      .selectFrom('dashboard_sessions')
      .select('last_seen_at')
      .where('token_hash', '=', hash)
      .executeTakeFirstOrThrow();
    expect(row.last_seen_at.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('stops a disabled login at once', async () => {
    const other = await insertAdmin(app, db, { password });
    const { cookie } = await session(other.email);
    await db.updateTable('users').set({ disabled_at: new Date() }).where('id', '=', other.id).execute();
    expect((await readSession(cookie)).statusCode).toBe(401);
  });
});

describe('the session cookie on dashboard routes', () => {
  it('opens the routes of its role, as a bearer token does', async () => {
    const { cookie } = await session();
    const list = await app.inject({ method: 'GET', url: '/api/v1/publisher', headers: { cookie } });
    expect(list.statusCode).toBe(200);
    const me = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie } });
    expect(me.json()).toMatchObject({ id: admin.id, role: 'admin' });
  });

  it('keeps the roles: a publisher session gets 403 on administrator routes, 200 on its own', async () => {
    const { cookie } = await session('desk@planet.example');
    const adminRoute = await app.inject({ method: 'GET', url: '/api/v1/publisher', headers: { cookie } });
    expect(adminRoute.statusCode).toBe(403);
    expect(adminRoute.json()).toMatchObject({ code: 'FORBIDDEN' });
    const own = await app.inject({ method: 'GET', url: '/api/v1/publisher/me', headers: { cookie } });
    expect(own.statusCode).toBe(200);
  });

  it('refuses a state-changing request without the CSRF header, or with a wrong one: 403 CSRF_TOKEN_INVALID', async () => {
    const { cookie, csrfToken } = await session();
    const create = (headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/site',
        headers: { cookie, ...headers },
        payload: { slug: `csrf-${Math.random().toString(36).slice(2, 8)}`, name: 'Metro' },
      });
    const other = await session();
    const wrongHeaders: Record<string, string>[] = [
      {},
      { 'x-csrf-token': 'x'.repeat(43) },
      { 'x-csrf-token': other.csrfToken },
    ];
    for (const headers of wrongHeaders) {
      const refused = await create(headers);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'CSRF_TOKEN_INVALID' });
    }
    expect((await db.selectFrom('sites').select('id').execute()).length).toBe(0);
    expect((await create({ 'x-csrf-token': csrfToken })).statusCode).toBe(201);
  });

  it('lets bearer tokens work exactly as before: no CSRF header, and they win over a cookie', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/site',
      headers: bearer(admin.token),
      payload: { slug: 'bearer-site', name: 'Bearer' },
    });
    expect(created.statusCode).toBe(201);
    const { cookie } = await session('desk@planet.example');
    const both = await app.inject({
      method: 'GET',
      url: '/api/v1/publisher',
      headers: { cookie, ...bearer(admin.token) },
    });
    expect(both.statusCode).toBe(200);
  });
});

describe('DELETE /api/v1/auth/session', () => {
  it('needs the CSRF token of a live session', async () => {
    const { cookie } = await session();
    const refused = await app.inject({ method: 'DELETE', url: '/api/v1/auth/session', headers: { cookie } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'CSRF_TOKEN_INVALID' });
    expect((await readSession(cookie)).statusCode).toBe(200);
  });

  it('ends the session on the server and clears the cookie: a copied cookie opens nothing afterwards', async () => {
    const { cookie, csrfToken } = await session();
    const response = await app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/session',
      headers: { cookie, 'x-csrf-token': csrfToken },
    });
    expect(response.statusCode).toBe(204);
    expect(response.cookies[0]).toMatchObject({ name: 'newsroom_session', value: '', path: '/' });
    expect((await readSession(cookie)).statusCode).toBe(401);
    const adminRoute = await app.inject({ method: 'GET', url: '/api/v1/publisher', headers: { cookie } });
    expect(adminRoute.statusCode).toBe(401);
  });

  it('just clears the cookie of a session that is already gone', async () => {
    const response = await app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/session',
      headers: { cookie: 'newsroom_session=gone' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.cookies[0]).toMatchObject({ name: 'newsroom_session', value: '' });
  });
});

describe('in production', () => {
  it('marks the session cookie Secure', async () => {
    const production = await createTestApp({ env: { NODE_ENV: 'production' } });
    try {
      const user = await insertAdmin(production.app, production.db, { password });
      const response = await production.app.inject({
        method: 'POST',
        url: '/api/v1/auth/session',
        payload: { email: user.email, password },
      });
      expect(response.statusCode).toBe(200);
      expect(response.cookies[0]).toMatchObject({ name: 'newsroom_session', secure: true });
    } finally {
      await production.close();
    }
  });
});
