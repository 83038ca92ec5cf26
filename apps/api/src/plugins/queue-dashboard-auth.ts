import type { User } from '@newsroom/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findTokenUser, type TokenClaims } from './auth';
import { errorBody } from './error-handler';

/** Where the queue dashboard lives, and the cookie that opens it (scoped to that path). */
export const queueDashboardPath = '/admin/queues';
export const queueDashboardCookie = 'queue_dashboard_token';

/**
 * The administrator a dashboard token belongs to, or undefined: the same checks as the API's
 * bearer tokens (HS256, issuer, audience, expiry, an active account read fresh), plus role admin.
 */
export async function dashboardAdministrator(
  app: FastifyInstance,
  token: string | undefined,
): Promise<User | undefined> {
  if (!token) return undefined;
  let claims: TokenClaims;
  try {
    claims = app.jwt.verify<TokenClaims>(token);
  } catch {
    return undefined;
  }
  const user = await findTokenUser(app.db, claims);
  return user?.role === 'admin' ? user : undefined;
}

/** Seconds until the token expires (the cookie should not outlive it). */
export function secondsLeft(app: FastifyInstance, token: string): number {
  const { exp } = app.jwt.decode<{ exp?: number }>(token) ?? {};
  return exp ? Math.max(0, exp - Math.floor(Date.now() / 1000)) : 0;
}

/**
 * onRequest hook of the dashboard's plugin context: only administrators with a valid dashboard
 * cookie get through. A browser asking for a page is sent to the login form; anything else gets a
 * 401 in the API's error shape. (Answered here rather than thrown: Bull Board's own error handler
 * would add a stack trace.)
 */
export async function requireDashboardAdministrator(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const user = await dashboardAdministrator(request.server, request.cookies[queueDashboardCookie]);
  if (user) {
    request.user = user;
    return;
  }
  const wantsPage = request.method === 'GET' && /text\/html/.test(String(request.headers.accept ?? ''));
  if (wantsPage) return reply.redirect(`${queueDashboardPath}/login`, 303);
  return reply
    .status(401)
    .send(errorBody(401, 'UNAUTHORIZED', 'Log in to the queue dashboard as an administrator'));
}
