import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type User, verifyCredentials } from '@newsroom/domain';
import { HttpError } from '../../http-error';
import { authenticate } from '../../plugins/auth';
import { LoginBodySchema, LoginResponseSchema, type UserBody, UserSchema } from '../../schemas/auth.schema';
import { errorResponses } from '../../schemas/error.schema';
import { LoginLimiter } from './login-limiter';

const toUserBody = (user: User): UserBody => ({
  id: user.id,
  email: user.email,
  role: user.role,
  ...(user.publisherId !== null && { publisherId: user.publisherId }),
});

/** Login (public, rate-limited) and the current user (any logged-in role). Prefix: /api/v1/auth. */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const limiter = new LoginLimiter(app.redis, app.config.redis.queuePrefix);

  app.post(
    '/login',
    {
      bodyLimit: 4096,
      schema: {
        tags: ['auth'],
        summary: 'Log in with e-mail and password; returns a dashboard token',
        description:
          'Every refusal is the same 401. After 5 failed logins for one e-mail (or 30 from one address) within 15 minutes: 429 with Retry-After. Without Redis: 503.',
        body: LoginBodySchema,
        response: { 200: LoginResponseSchema, ...errorResponses(400, 401, 413, 429, 503) },
      },
    },
    async (request) => {
      const attempt = await limiter.reserve(request.body.email, request.ip);
      const user = await verifyCredentials(app.db, app.passwords, request.body);
      if (!user) throw new HttpError(401, 'INVALID_CREDENTIALS', 'Wrong e-mail or password');
      // The login stands even if Redis fails now; the e-mail's counter then just ages out.
      await limiter
        .succeeded(attempt)
        .catch((err) => request.log.warn({ err }, 'could not reset login attempts'));
      return { token: app.issueToken(user), user: toUserBody(user) };
    },
  );

  app.get(
    '/me',
    {
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
};
