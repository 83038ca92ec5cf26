import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getProfile, updateProfile } from '@newsroom/domain';
import { authenticate } from '../../plugins/auth';
import { errorResponses } from '../../schemas/error.schema';
import { ProfileSchema, ProfileUpdateBodySchema } from '../../schemas/two-factor.schema';
import { twoFactorRoutes } from './two-factor.routes';

const tags = ['account'];
const security = [{ bearerAuth: [] }];

/**
 * The signed-in user's own account (any role): the profile, and for staff the second factor.
 * Prefix: /api/v1/account. Authenticated once for the subtree (second-factor check included).
 */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', async (request) => {
    await authenticate(request);
  });

  app.get(
    '/profile',
    {
      schema: {
        tags,
        summary: 'Your profile (the display name is your byline)',
        security,
        response: { 200: ProfileSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => getProfile(app.db, request.user.id),
  );

  app.patch(
    '/profile',
    {
      bodyLimit: 4096,
      schema: {
        tags,
        summary: 'Change your display name',
        security,
        body: ProfileUpdateBodySchema,
        response: { 200: ProfileSchema, ...errorResponses(400, 401, 403, 413) },
      },
    },
    async (request) => updateProfile(app.db, request.user.id, request.body),
  );

  await app.register(twoFactorRoutes, { prefix: '/2fa' });
};
