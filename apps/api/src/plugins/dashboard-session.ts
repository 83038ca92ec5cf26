import { createHmac, timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import { resumeDashboardSession, type User } from '@newsroom/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http-error';

/** The dashboard's session cookie: HttpOnly, SameSite=Strict, Path=/, Secure in production. */
export const sessionCookieName = 'newsroom_session';
export const csrfHeader = 'x-csrf-token';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The dashboard session the request was authenticated by (null for a bearer token or no auth). */
    dashboardSessionId: string | null;
  }
  interface FastifyInstance {
    /** The CSRF token of a session: an HMAC of its cookie token, so it needs no storage and dies with it. */
    csrfTokenOf(sessionToken: string): string;
    setSessionCookie(reply: FastifyReply, sessionToken: string, expiresAt: Date): void;
    clearSessionCookie(reply: FastifyReply): void;
  }
}

/**
 * Cookie sessions of the dashboard (docs/auth.md): @fastify/cookie for the browser-facing routes (parsing on demand), and the
 * helpers that write the session cookie and derive its CSRF token.
 */
export const dashboardSessionPlugin = fp(async (app: FastifyInstance) => {
  // hook: false: no cookie parsing on every request (the client API, most of the traffic, has no use for it);
  // the session cookie is parsed where it is read (sessionTokenOf). Setting cookies works as before.
  await app.register(cookie, { hook: false });
  app.decorateRequest('dashboardSessionId', null);
  // A key of its own, derived from JWT_SECRET: a CSRF token is never also a valid signature elsewhere.
  const csrfKey = createHmac('sha256', app.config.jwt.secret).update('newsroom dashboard csrf').digest();
  const secure = app.config.env === 'production';

  app.decorate('csrfTokenOf', (sessionToken: string) =>
    createHmac('sha256', csrfKey).update(sessionToken).digest('base64url'),
  );
  app.decorate('setSessionCookie', (reply: FastifyReply, sessionToken: string, expiresAt: Date) => {
    reply.setCookie(sessionCookieName, sessionToken, {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure,
      expires: expiresAt,
    });
  });
  app.decorate('clearSessionCookie', (reply: FastifyReply) => {
    reply.clearCookie(sessionCookieName, { path: '/', httpOnly: true, sameSite: 'strict', secure });
  });
});

/** The session token of the request's cookie, if it has one. */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const token = request.server.parseCookie(header)[sessionCookieName];
  return token ? token : undefined;
}

/** The user of the request's live session cookie, or undefined. Does not check CSRF: see authenticateBySession. */
export async function sessionUser(request: FastifyRequest): Promise<User | undefined> {
  const session = await liveSession(request);
  request.secondFactorVerifiedAt = session?.secondFactorAt ?? null;
  return session?.user;
}

async function liveSession(request: FastifyRequest) {
  const token = sessionTokenOf(request);
  if (!token) return undefined;
  return resumeDashboardSession(request.server.db, token, request.server.config.session);
}

/** Whether the request carries the CSRF token of its session cookie (compared in constant time). */
export function hasValidCsrfToken(request: FastifyRequest): boolean {
  const token = sessionTokenOf(request);
  const sent = request.headers[csrfHeader];
  if (!token || typeof sent !== 'string') return false;
  const expected = Buffer.from(request.server.csrfTokenOf(token));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Authenticates a request by its session cookie, as `authenticate` does a bearer token: 401 without
 * a live session; a state-changing method (POST, PUT, PATCH, DELETE) must also carry the session's
 * CSRF token in `x-csrf-token`, else 403 CSRF_TOKEN_INVALID.
 */
export async function authenticateBySession(request: FastifyRequest): Promise<User> {
  const session = await liveSession(request);
  if (!session) throw new HttpError(401, 'UNAUTHORIZED', 'Missing, invalid or expired session');
  if (!safeMethods.has(request.method) && !hasValidCsrfToken(request)) {
    throw new HttpError(403, 'CSRF_TOKEN_INVALID', `Missing or wrong ${csrfHeader} header`);
  }
  request.user = session.user;
  request.dashboardSessionId = session.id;
  request.secondFactorVerifiedAt = session.secondFactorAt;
  return session.user;
}
