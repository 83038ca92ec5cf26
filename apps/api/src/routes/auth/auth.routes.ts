import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticate } from '../../plugins/auth';
import { LoginBodySchema, LoginResponseSchema, UserSchema } from '../../schemas/auth.schema';
import { errorResponses } from '../../schemas/error.schema';
import { passwordLogin, toUserBody } from './password-login';

/** Login (public, rate-limited) and the current user (any logged-in role). Prefix: /api/v1/auth. */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const login = passwordLogin(app);

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
      const user = await login(request, request.body);
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
