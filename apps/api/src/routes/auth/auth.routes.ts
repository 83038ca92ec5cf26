import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { assertAcceptablePassword, changeOwnPassword } from '@newsroom/domain';
import { Type } from 'typebox';
import { HttpError } from '../../http-error';
import { authenticate } from '../../plugins/auth';
import {
  ChangePasswordBodySchema,
  LoginBodySchema,
  LoginResponseSchema,
  UserSchema,
} from '../../schemas/auth.schema';
import { errorResponses } from '../../schemas/error.schema';
import { SecondFactorChallengeSchema } from '../../schemas/two-factor.schema';
import { passwordLogin, toUserBody } from './password-login';
import { secondFactorChallengeFor } from './second-factor-step';

/** Login (public, rate-limited), the current user and its password (any logged-in role). Prefix: /api/v1/auth. */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const login = passwordLogin(app);

  app.post(
    '/login',
    {
      bodyLimit: 4096,
      // logIn, logInFailed, logInLockedOut: written by passwordLogin as they happen.
      config: { audit: 'explicit' },
      schema: {
        tags: ['auth'],
        summary: 'Log in with e-mail and password; returns a dashboard token',
        description:
          "Every refusal is the same 401. After 5 failed logins for one e-mail from one address (IPv6: one /64), 30 from one address, or 100 for one e-mail from all untrusted places in an hour: 429 with Retry-After. A browser with the login's device cookie (set on every success) or an address it signed in from in the last 30 days is not held by the 100-an-hour ceiling. Without Redis: 503. A user with two-factor authentication gets 202 and a challenge instead: send its token and a code to POST /auth/login/2fa.",
        body: LoginBodySchema,
        response: {
          200: LoginResponseSchema,
          202: SecondFactorChallengeSchema,
          ...errorResponses(400, 401, 413, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const user = await login(request, request.body);
      app.deviceCookies.remember(reply, user.email);
      const challenge = await secondFactorChallengeFor(app, user, 'token');
      if (challenge) return reply.status(202).send(challenge);
      return { token: app.issueToken(user), user: toUserBody(user) };
    },
  );

  app.get(
    '/me',
    {
      // Open to an administrator the policy sends to enrolment (the dashboard needs to know who is signed in).
      config: { beforeTwoFactorEnrolment: true },
      onRequest: async (request) => {
        await authenticate(request);
      },
      schema: {
        tags: ['auth'],
        summary: 'The logged-in user',
        security: [{ bearerAuth: [] }],
        response: { 200: UserSchema, ...errorResponses(401) },
      },
    },
    async (request) => toUserBody(request.user),
  );

  app.put(
    '/password',
    {
      bodyLimit: 4096,
      onRequest: async (request) => {
        await authenticate(request);
      },
      schema: {
        tags: ['auth'],
        summary: 'Change your own password (the current one required)',
        description:
          'Any logged-in role. 204 on success. Every token of the user stops working, the one that made the change included (log in again for a new one), and so does every dashboard session of the user except the one the change was made in (it stays signed in, same CSRF token). A wrong current password is a 401 INVALID_CREDENTIALS and counts as a failed login.',
        security: [{ bearerAuth: [] }],
        body: ChangePasswordBodySchema,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 413, 429, 503) },
      },
    },
    async (request, reply) => {
      // A new password that breaks the rules is a 400 before any attempt is counted.
      assertAcceptablePassword(request.body.newPassword);
      const attempt = await app.loginLimiter.reserve(request.user.email, request.ip);
      const outcome = await changeOwnPassword(
        app.db,
        app.passwords,
        request.user.id,
        request.body,
        request.dashboardSessionId ?? undefined,
      );
      if (outcome === 'wrong-current-password')
        throw new HttpError(401, 'INVALID_CREDENTIALS', 'The current password is wrong');
      await app.loginLimiter
        .succeeded(attempt)
        .catch((err) => request.log.warn({ err }, 'could not reset login attempts'));
      return reply.status(204).send(null);
    },
  );
};
