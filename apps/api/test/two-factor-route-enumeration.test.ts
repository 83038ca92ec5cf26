import { createHmac } from 'node:crypto';
import { findActiveUserById, startDashboardSession } from '@newsroom/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { insertAdmin } from './support/dashboard-accounts';
import { type OpenApiDocument, type Operation, operationsOf } from './support/fuzz/openapi-operations';
import { createTestApp } from './support/test-app';
import { controlSecondFactorClock, enrol, sessionOf, withSession } from './support/two-factor';

/**
 * Route enumeration (Ghost's 2FA bypass by a request flag, PR #25806, is what this guards against): every
 * operation of our own OpenAPI document that needs a dashboard login is called with each credential that
 * lacks a second factor, and must refuse. A new route is covered the day it is added; a new exemption has to
 * be added to the lists below on purpose.
 */
const { app, db, config, close } = await createTestApp();
afterAll(close);
const clock = controlSecondFactorClock(app);
const password = 'correct horse battery';

const document = (await app.inject({ method: 'GET', url: '/docs/json' })).json() as OpenApiDocument;
const operations = operationsOf(document).filter((operation) =>
  ['admin', 'publisher', 'dashboard user'].includes(operation.caller),
);
const key = (operation: Operation) => `${operation.method} ${operation.path}`;

/** Routes an administrator the policy sends to enrolment may still use. Nothing else. */
const openBeforeEnrolment = [
  'GET /api/v1/auth/me',
  'GET /api/v1/auth/session',
  'DELETE /api/v1/auth/session',
  'GET /api/v1/account/2fa',
  'POST /api/v1/account/2fa/setup',
  'POST /api/v1/account/2fa/confirm',
];
/** Signing out needs no second factor (it only ends the session); it is not called here (it would end it). */
const signOut = 'DELETE /api/v1/auth/session';
/** Reads only the session cookie: a bearer token there is no credential at all (401 UNAUTHORIZED). */
const cookieOnly = 'GET /api/v1/auth/session';
/** The credentials of one kind of caller that an operation reads (the cookie-only route takes no token). */
const credentialsFor = (operation: Operation, session: Record<string, string>, token: string) =>
  key(operation) === cookieOnly ? [session] : [session, { authorization: `Bearer ${token}` }];

const urlOf = (operation: Operation) =>
  operation.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
const call = (operation: Operation, headers: Record<string, string>) =>
  app.inject({
    method: operation.method,
    url: urlOf(operation),
    headers: { ...headers, ...(operation.body ? { 'content-type': 'application/json' } : {}) },
    ...(operation.body ? { payload: '{}' } : {}),
    remoteAddress: '10.9.0.1',
  });

const signIn = (email: string, url = '/api/v1/auth/session') =>
  app.inject({
    method: 'POST',
    url,
    payload: { email, password },
    remoteAddress: `10.9.1.${Math.floor(Math.random() * 250)}`,
  });

// An administrator with TOTP, who turns the policy on; a live session and a valid token of it that never
// passed the second step (what a skipped check would hand out); a half-verified sign-in of it (the challenge
// token) in both kinds.
const enrolled = await insertAdmin(app, db, { password });
const enrolling = sessionOf(await signIn(enrolled.email));
await enrol(app, enrolling, clock);
const version = (await findActiveUserById(db, enrolled.id))?.tokenVersion ?? 0;
const staleToken = app.issueToken({ id: enrolled.id, tokenVersion: version });
const unverified = await startDashboardSession(db, enrolled, app.config.session);
const staleSession = {
  cookie: `newsroom_session=${unverified.token}`,
  // The session's real CSRF token (dashboard-session.ts derives it so), so CSRF is never the reason for a refusal.
  csrfToken: createHmac(
    'sha256',
    createHmac('sha256', config.jwt.secret).update('newsroom dashboard csrf').digest(),
  )
    .update(unverified.token)
    .digest('base64url'),
};
const policy = await app.inject({
  method: 'PUT',
  url: '/api/v1/security-settings',
  headers: withSession(enrolling),
  payload: { requireAdminTwoFactor: true },
});
expect(policy.statusCode).toBe(200);
const sessionChallenge = (await signIn(enrolled.email)).json().challengeToken as string;
const tokenChallenge = (await signIn(enrolled.email, '/api/v1/auth/login')).json().challengeToken as string;
// An administrator without TOTP while the policy requires it.
const plain = await insertAdmin(app, db, { password });
const plainSession = sessionOf(await signIn(plain.email));

describe('every dashboard operation without a second factor', () => {
  it('covers the whole document', () => {
    expect(operations.length).toBeGreaterThan(50);
    for (const route of openBeforeEnrolment) expect(operations.map(key)).toContain(route);
  });

  const halfVerified: [string, Record<string, string>][] = [
    ['a challenge token as a bearer token', { authorization: `Bearer ${tokenChallenge}` }],
    ['a session challenge token as a bearer token', { authorization: `Bearer ${sessionChallenge}` }],
    [
      'a challenge token as the session cookie',
      { cookie: `newsroom_session=${sessionChallenge}`, 'x-csrf-token': 'x' },
    ],
  ];
  for (const [name, headers] of halfVerified) {
    it(`refuses ${name} with 401 everywhere`, async () => {
      const answers: string[] = [];
      for (const operation of operations) {
        const response = await call(operation, headers);
        if (response.statusCode !== 401 && !(key(operation) === signOut && response.statusCode === 204)) {
          answers.push(`${key(operation)}: ${response.statusCode}`);
        }
      }
      expect(answers).toEqual([]);
    });
  }

  it('refuses a live session and a valid token that skipped the second step with 401 SECOND_FACTOR_REQUIRED everywhere', async () => {
    const answers: string[] = [];
    for (const operation of operations.filter((o) => key(o) !== signOut)) {
      for (const headers of credentialsFor(operation, withSession(staleSession), staleToken)) {
        const response = await call(operation, headers);
        if (response.statusCode !== 401 || response.json().code !== 'SECOND_FACTOR_REQUIRED') {
          answers.push(`${key(operation)}: ${response.statusCode} ${response.json().code}`);
        }
      }
    }
    expect(answers).toEqual([]);
  });

  it('answers an administrator without TOTP 403 TWO_FACTOR_REQUIRED everywhere but the enrolment routes', async () => {
    const refused: string[] = [];
    const open: string[] = [];
    for (const operation of operations.filter((o) => key(o) !== signOut)) {
      for (const headers of credentialsFor(operation, withSession(plainSession), plain.token)) {
        const response = await call(operation, headers);
        if (response.statusCode === 403 && response.json().code === 'TWO_FACTOR_REQUIRED')
          refused.push(key(operation));
        else if (response.statusCode !== 401 && response.statusCode !== 403) open.push(key(operation));
        else refused.push(`${key(operation)} (${response.json().code})`);
      }
    }
    expect([...new Set(open)].sort()).toEqual(
      openBeforeEnrolment.filter((route) => route !== signOut).sort(),
    );
    expect(refused.filter((entry) => entry.includes('('))).toEqual([]);
  });
});
