import { findActiveUserById, startDashboardSession } from '@newsroom/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, insertAdmin, insertPublisher } from './support/dashboard-accounts';
import { createTestApp } from './support/test-app';
import {
  authenticator,
  controlSecondFactorClock,
  enrol,
  type Session,
  sessionOf,
  withSession,
} from './support/two-factor';

const { app, db, close } = await createTestApp();
afterAll(close);
const clock = controlSecondFactorClock(app);

const password = 'correct horse battery';
let address = 0;
/** Each sign-in from its own address, so the password limiter never links two tests. */
const signIn = (email: string, url = '/api/v1/auth/session') =>
  app.inject({ method: 'POST', url, payload: { email, password }, remoteAddress: `10.2.0.${++address}` });
const secondStep = (challengeToken: string, code: string, url = '/api/v1/auth/session/2fa') =>
  app.inject({ method: 'POST', url, payload: { challengeToken, code } });

async function signedInAdmin() {
  const admin = await insertAdmin(app, db, { password });
  const response = await signIn(admin.email);
  expect(response.statusCode).toBe(200);
  return { admin, session: sessionOf(response) };
}

async function enrolledAdmin() {
  const { admin, session } = await signedInAdmin();
  return { admin, session, ...(await enrol(app, session, clock)) };
}

const get = (url: string, headers: Record<string, string>) => app.inject({ method: 'GET', url, headers });
const listArticles = (session: Session) => get('/api/v1/article', withSession(session));

describe('enrolment', () => {
  it('answers a secret and an otpauth URI, turns on with a code and keeps the confirming session signed in', async () => {
    const { admin, session, secret, otpauthUri, recoveryCodes } = await enrolledAdmin();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri).toBe(
      `otpauth://totp/Newsroom:${encodeURIComponent(admin.email)}?secret=${secret}&issuer=Newsroom&algorithm=SHA1&digits=6&period=30`,
    );
    expect(recoveryCodes).toHaveLength(10);
    expect((await listArticles(session)).statusCode).toBe(200);
    const status = await get('/api/v1/account/2fa', withSession(session));
    expect(status.json()).toMatchObject({ enabled: true, recoveryCodesLeft: 10, required: false });
    // The secret is never answered again: setup now refuses.
    const again = await app.inject({
      method: 'POST',
      url: '/api/v1/account/2fa/setup',
      headers: withSession(session),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('TWO_FACTOR_ALREADY_ENABLED');
  });

  it('refuses a wrong confirmation code and a confirmation without a started enrolment', async () => {
    const { session } = await signedInAdmin();
    const early = await app.inject({
      method: 'POST',
      url: '/api/v1/account/2fa/confirm',
      headers: withSession(session),
      payload: { code: '123456' },
    });
    expect(early.json().code).toBe('TWO_FACTOR_NOT_STARTED');
    await app.inject({ method: 'POST', url: '/api/v1/account/2fa/setup', headers: withSession(session) });
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/v1/account/2fa/confirm',
      headers: withSession(session),
      payload: { code: 'abcdef' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('INVALID_SECOND_FACTOR_CODE');
  });

  it('signs every other session and token of the user out; a bearer client gets a new token', async () => {
    const { admin, session } = await signedInAdmin();
    const other = sessionOf(await signIn(admin.email));
    await enrol(app, session, clock);
    expect((await listArticles(other)).json().code).toBe('UNAUTHORIZED');
    expect((await get('/api/v1/article', bearer(admin.token))).json().code).toBe('UNAUTHORIZED');
    expect((await listArticles(session)).statusCode).toBe(200);

    const tokenUser = await insertAdmin(app, db, { password });
    const setup = await app.inject({
      method: 'POST',
      url: '/api/v1/account/2fa/setup',
      headers: bearer(tokenUser.token),
    });
    const confirm = await app.inject({
      method: 'POST',
      url: '/api/v1/account/2fa/confirm',
      headers: bearer(tokenUser.token),
      payload: { code: authenticator(setup.json().secret, clock).next() },
    });
    expect((await get('/api/v1/article', bearer(tokenUser.token))).statusCode).toBe(401);
    expect((await get('/api/v1/article', bearer(confirm.json().token))).statusCode).toBe(200);
  });

  it('refuses a session or token that never passed the second step (401 SECOND_FACTOR_REQUIRED)', async () => {
    const { admin } = await enrolledAdmin();
    const user = await findActiveUserById(db, admin.id);
    // As a bug or a forged flag would make them: a live session and a valid token without the second factor.
    const started = await startDashboardSession(db, admin, app.config.session);
    const cookie = { cookie: `newsroom_session=${started.token}` };
    const token = app.issueToken({ id: admin.id, tokenVersion: user?.tokenVersion ?? 0 });
    for (const headers of [cookie, bearer(token)]) {
      const refused = await get('/api/v1/article', headers);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().code).toBe('SECOND_FACTOR_REQUIRED');
    }
  });
});

describe('sign-in with a second factor', () => {
  it('answers a challenge instead of a session; the challenge opens nothing; a code completes it', async () => {
    const { admin, codes } = await enrolledAdmin();
    const first = await signIn(admin.email);
    expect(first.statusCode).toBe(202);
    expect(first.cookies.find((c) => c.name === 'newsroom_session')).toBeUndefined();
    const challenge = first.json();
    expect(challenge).toMatchObject({ secondFactor: 'totp', attempts: 5 });
    expect((await get('/api/v1/auth/me', bearer(challenge.challengeToken))).statusCode).toBe(401);
    expect(
      (await get('/api/v1/article', { cookie: `newsroom_session=${challenge.challengeToken}` })).statusCode,
    ).toBe(401);
    const done = await secondStep(challenge.challengeToken, codes.next());
    expect(done.statusCode).toBe(200);
    expect((await listArticles(sessionOf(done))).statusCode).toBe(200);
  });

  it('completes a token login the same way; the token carries its second factor', async () => {
    const { admin, codes } = await enrolledAdmin();
    const first = await signIn(admin.email, '/api/v1/auth/login');
    expect(first.statusCode).toBe(202);
    // A challenge of the other kind is refused.
    const wrongKind = await secondStep(first.json().challengeToken, codes.next());
    expect(wrongKind.json().code).toBe('SECOND_FACTOR_CHALLENGE_INVALID');
    const done = await secondStep(first.json().challengeToken, codes.next(), '/api/v1/auth/login/2fa');
    expect(done.statusCode).toBe(200);
    expect((await get('/api/v1/article', bearer(done.json().token))).statusCode).toBe(200);
  });

  it('refuses a replayed code', async () => {
    const { admin, codes } = await enrolledAdmin();
    const code = codes.next();
    const first = await signIn(admin.email);
    expect((await secondStep(first.json().challengeToken, code)).statusCode).toBe(200);
    const second = await signIn(admin.email);
    const replay = await secondStep(second.json().challengeToken, code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('SECOND_FACTOR_CODE_USED');
    // The confirmation's own code is spent as well.
    expect((await secondStep(second.json().challengeToken, codes.current())).json().code).toBe(
      'SECOND_FACTOR_CODE_USED',
    );
  });

  it('allows five codes per challenge, then locks the user out of code checks with Retry-After', async () => {
    const { admin, codes } = await enrolledAdmin();
    const { challengeToken } = (await signIn(admin.email)).json();
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push((await secondStep(challengeToken, '000000')).json().message);
    expect(answers.slice(0, 4)).toEqual([4, 3, 2, 1].map((n) => `Wrong code (${n} attempts left)`));
    const exhausted = await secondStep(challengeToken, codes.next());
    expect(exhausted.json().code).toBe('SECOND_FACTOR_CHALLENGE_INVALID');
    // Five wrong codes in a row: even the right code of a new challenge is refused for 15 minutes.
    const fresh = (await signIn(admin.email)).json();
    const locked = await secondStep(fresh.challengeToken, codes.next());
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('TOO_MANY_SECOND_FACTOR_ATTEMPTS');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60 - 60);
    clock.advance(15 * 60_000);
    const later = (await signIn(admin.email)).json();
    expect((await secondStep(later.challengeToken, codes.next())).statusCode).toBe(200);
  });

  it('accepts a recovery code once', async () => {
    const { admin, recoveryCodes } = await enrolledAdmin();
    const code = recoveryCodes[3] as string;
    const first = (await signIn(admin.email)).json();
    expect((await secondStep(first.challengeToken, code)).statusCode).toBe(200);
    const second = (await signIn(admin.email)).json();
    expect((await secondStep(second.challengeToken, code)).json().code).toBe('INVALID_SECOND_FACTOR_CODE');
  });
});

describe('managing the second factor', () => {
  it('regenerates recovery codes with a current code, and disables with the password and a code', async () => {
    const { admin, session, codes, recoveryCodes } = await enrolledAdmin();
    const regenerated = await app.inject({
      method: 'POST',
      url: '/api/v1/account/2fa/recovery-codes',
      headers: withSession(session),
      payload: { code: codes.next() },
    });
    expect(regenerated.statusCode).toBe(200);
    const fresh = regenerated.json().recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recoveryCodes[0]);

    const wrongPassword = await app.inject({
      method: 'POST',
      url: '/api/v1/account/2fa/disable',
      headers: withSession(session),
      payload: { password: 'not it at all', code: codes.next() },
      remoteAddress: '10.3.0.1',
    });
    expect(wrongPassword.json().code).toBe('INVALID_CREDENTIALS');
    const disabled = await app.inject({
      method: 'POST',
      url: '/api/v1/account/2fa/disable',
      headers: withSession(session),
      payload: { password, code: fresh[0] },
      remoteAddress: '10.3.0.2',
    });
    expect(disabled.statusCode).toBe(204);
    // One step again.
    expect((await signIn(admin.email)).statusCode).toBe(200);
  });

  it('keeps publishers out of the second-factor routes', async () => {
    const publisher = await insertPublisher(app, db, { approved: true });
    const response = await get('/api/v1/account/2fa', bearer(publisher.token));
    expect(response.statusCode).toBe(403);
  });
});

describe('requiring two-factor authentication of administrators', () => {
  it('sends an administrator without it to enrolment: 403 everywhere else, including the queue dashboard', async () => {
    const { session: enrolledSession } = await enrolledAdmin();
    const plain = await signedInAdmin();
    const notYet = await app.inject({
      method: 'PUT',
      url: '/api/v1/security-settings',
      headers: withSession(plain.session),
      payload: { requireAdminTwoFactor: true },
    });
    expect(notYet.json().code).toBe('TWO_FACTOR_NOT_ENABLED');
    const on = await app.inject({
      method: 'PUT',
      url: '/api/v1/security-settings',
      headers: withSession(enrolledSession),
      payload: { requireAdminTwoFactor: true },
    });
    expect(on.json()).toMatchObject({ requireAdminTwoFactor: true });
    try {
      const refused = await listArticles(plain.session);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('TWO_FACTOR_REQUIRED');
      expect((await get('/api/v1/article', bearer(plain.admin.token))).json().code).toBe(
        'TWO_FACTOR_REQUIRED',
      );
      expect((await get('/admin/queues/api/queues', { cookie: plain.session.cookie })).json().code).toBe(
        'TWO_FACTOR_REQUIRED',
      );
      expect((await get('/api/v1/auth/session', { cookie: plain.session.cookie })).statusCode).toBe(200);
      const status = await get('/api/v1/account/2fa', withSession(plain.session));
      expect(status.json()).toMatchObject({ enabled: false, required: true });
      // Enrolling lifts it, in the same session.
      await enrol(app, plain.session, clock);
      expect((await listArticles(plain.session)).statusCode).toBe(200);
    } finally {
      await db.updateTable('security_settings').set({ require_admin_two_factor: false }).execute();
    }
  });
});

describe('profile', () => {
  it('reads and changes the display name (trimmed; blank clears it)', async () => {
    const { session, admin } = await signedInAdmin();
    const patch = (displayName: string | null) =>
      app.inject({
        method: 'PATCH',
        url: '/api/v1/account/profile',
        headers: withSession(session),
        payload: { displayName },
      });
    expect((await patch('  Lois Lane ')).json()).toEqual({
      id: admin.id,
      email: admin.email,
      role: 'admin',
      displayName: 'Lois Lane',
    });
    expect((await get('/api/v1/account/profile', withSession(session))).json().displayName).toBe('Lois Lane');
    expect((await patch('   ')).json().displayName).toBeNull();
    expect((await patch('x'.repeat(101))).statusCode).toBe(400);
  });
});
