import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getSecuritySettings, updateSecuritySettings } from '@newsroom/domain';
import { errorResponses } from '../../schemas/error.schema';
import { SecuritySettingsBodySchema, SecuritySettingsSchema } from '../../schemas/two-factor.schema';

const tags = ['security'];
const security = [{ bearerAuth: [] }];

/** The security policy, administrators only. Prefix: /api/v1/security-settings. */
export const securitySettingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '',
    {
      schema: {
        tags,
        summary: 'The security policy',
        security,
        response: { 200: SecuritySettingsSchema, ...errorResponses(401, 403) },
      },
    },
    async () => getSecuritySettings(app.db),
  );

  app.put(
    '',
    {
      bodyLimit: 4096,
      schema: {
        tags,
        summary: 'Change the security policy',
        description:
          'Turning requireAdminTwoFactor on needs your own two-factor authentication first (409 TWO_FACTOR_NOT_ENABLED), so nobody locks themselves out.',
        security,
        body: SecuritySettingsBodySchema,
        response: { 200: SecuritySettingsSchema, ...errorResponses(400, 401, 403, 409, 413) },
      },
    },
    async (request) => updateSecuritySettings(app.db, request.user, request.body),
  );
};
