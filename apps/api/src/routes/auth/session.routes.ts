import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { endDashboardSession, startDashboardSession } from '@newsroom/domain';
import { Type } from 'typebox';
import { recordAudit } from '../../audit/audit.plugin';
import { authenticateBySession, sessionTokenOf } from '../../plugins/dashboard-session';
import { assertSecondFactor } from '../../plugins/second-factor';
import { LoginBodySchema, SessionResponseSchema } from '../../schemas/auth.schema';
import { errorResponses } from '../../schemas/error.schema';
import { SecondFactorChallengeSchema } from '../../schemas/two-factor.schema';
import { passwordLogin, toUserBody } from './password-login';
import { secondFactorChallengeFor } from './second-factor-step';

const tags = ['auth'];

/**
 * The dashboard's cookie session (docs/auth.md): sign in, read the session, sign out.
 * Prefix: /api/v1/auth.
 */
export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const login = passwordLogin(app);

  app.post(
    '/session',
    {
      bodyLimit: 4096,
      // logIn, logInFailed, logInLockedOut: written by passwordLogin as they happen.
      config: { audit: 'explicit' },
      schema: {
        tags,
        summary: 'Sign in to the dashboard: sets the HttpOnly session cookie',
        description:
          'Same checks, limiter and errors as POST /auth/login. Answers the user and the CSRF token to send as x-csrf-token with state-changing requests. A user with two-factor authentication gets 202 and a challenge instead (no cookie): send its token and a code to POST /auth/session/2fa.',
        body: LoginBodySchema,
        response: {
          200: SessionResponseSchema,
          202: SecondFactorChallengeSchema,
          ...errorResponses(400, 401, 413, 415, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const user = await login(request, request.body);
      const challenge = await secondFactorChallengeFor(app, user, 'session');
      if (challenge) {
        app.deviceCookies.remember(reply, user.email);
        return reply.status(202).send(challenge);
      }
      const session = await startDashboardSession(app.db, user, app.config.session);
      app.setSessionCookie(reply, session.token, session.expiresAt);
      app.deviceCookies.remember(reply, user.email);
      return { user: toUserBody(user), csrfToken: app.csrfTokenOf(session.token) };
    },
  );

  app.get(
    '/session',
    {
      config: { beforeTwoFactorEnrolment: true },
      schema: {
        tags,
        summary: 'The signed-in user of the session cookie, and its CSRF token',
        security: [{ sessionCookie: [] }],
        response: { 200: SessionResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const user = await authenticateBySession(request);
      await assertSecondFactor(request, user);
      return { user: toUserBody(user), csrfToken: app.csrfTokenOf(sessionTokenOf(request) as string) };
    },
  );

  app.delete(
    '/session',
    {
      // A row only when a live session ended (clearing a dead cookie changes nothing).
      config: { audit: 'explicit' },
      schema: {
        tags,
        summary: 'Sign out: ends the session on the server and clears the cookie',
        description:
          'A live session needs its x-csrf-token (else 403). Without a live session the cookie is just cleared.',
        security: [{ sessionCookie: [] }],
        response: { 204: Type.Null(), ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const token = sessionTokenOf(request);
      if (token) {
        // A live session is only ended by its own page (CSRF); a dead one has nothing left to end.
        const live = await authenticateBySession(request).then(
          () => true,
          (error: { statusCode?: number }) => {
            if (error.statusCode === 401) return false;
            throw error;
          },
        );
        if (live) {
          await endDashboardSession(app.db, token);
          await recordAudit(request, {
            action: 'deleteSession',
            objectType: 'user',
            objectId: request.user.id,
          });
        }
      }
      app.clearSessionCookie(reply);
      return reply.status(204).send(null);
    },
  );
};
