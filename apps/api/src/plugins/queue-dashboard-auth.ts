import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error';
import { hasValidCsrfToken, sessionUser } from './dashboard-session';
import { errorBody } from './error-handler';
import { assertSecondFactor } from './second-factor';

/** Where the queue dashboard lives. */
export const queueDashboardPath = '/admin/queues';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The dashboard's sign-in page, coming back to `url` afterwards. */
export const signInUrl = (url: string) => `/login?next=${encodeURIComponent(url).replaceAll('%2F', '/')}`;

/**
 * Whether a write comes from a page of this origin. Bull Board's own page cannot send our CSRF header,
 * but every browser sends Sec-Fetch-Site (or at least Origin) with a POST/PUT/DELETE, and a cross-site
 * page cannot forge either.
 */
function fromThisOrigin(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin';
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

/**
 * onRequest hook of the queue dashboard's plugin context: only administrators signed in to the
 * dashboard (its session cookie) get through. A browser asking for a page without a session is sent to
 * the sign-in page and back; anything else gets the API's 401 / 403 error shape. Writes (retry, add,
 * clean, ...) must also come from this origin, or carry the session's x-csrf-token. (Answered here
 * rather than thrown: Bull Board's own error handler would add a stack trace.)
 */
export async function requireDashboardAdministrator(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const user = await sessionUser(request);
  const wantsPage = request.method === 'GET' && /text\/html/.test(String(request.headers.accept ?? ''));
  if (!user) {
    if (wantsPage) return reply.redirect(signInUrl(request.url), 303);
    return reply
      .status(401)
      .send(errorBody(401, 'UNAUTHORIZED', 'Sign in to the dashboard as an administrator'));
  }
  if (user.role !== 'admin') {
    return reply.status(403).send(errorBody(403, 'FORBIDDEN', 'The queue dashboard is for administrators'));
  }
  try {
    await assertSecondFactor(request, user);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return reply.status(error.statusCode).send(errorBody(error.statusCode, error.code, error.message));
  }
  if (!safeMethods.has(request.method) && !fromThisOrigin(request) && !hasValidCsrfToken(request)) {
    return reply
      .status(403)
      .send(errorBody(403, 'CSRF_TOKEN_INVALID', 'Queue dashboard changes must come from its own page'));
  }
  request.user = user;
}
