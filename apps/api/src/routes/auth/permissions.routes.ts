import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getTeamMember, policyTable, rolesOf } from '@newsroom/domain';
import { authenticate } from '../../plugins/auth';
import { actorOf } from '../../plugins/policy-guard';
import { errorResponses } from '../../schemas/error.schema';
import { PermissionsSchema } from '../../schemas/team.schema';

/** What the signed-in user may do: its grants and its rows of the policy table. Prefix: /api/v1/auth. */
export const permissionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/permissions',
    {
      onRequest: async (request) => {
        await authenticate(request);
      },
      schema: {
        tags: ['auth'],
        summary: 'Your role, your site grants and the rows of the policy table that apply to you',
        description:
          'The dashboard shows only the controls these allow (the API guards read the same table). Read it again after a role change: grants are effective on the next request.',
        security: [{ bearerAuth: [] }],
        response: { 200: PermissionsSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const user = request.user;
      const actor = await actorOf(request, user);
      const grants = actor.grants.length > 0 ? (await getTeamMember(app.db, user.id)).grants : [];
      const roles = rolesOf(actor);
      const rows = policyTable
        .filter(([, caller]) => caller === 'signed-in' || roles.has(caller as never))
        .map(([operationId, caller, scope]) => ({ operationId, caller, scope }));
      return { role: user.role, grants, everything: user.role === 'admin', rows };
    },
  );
};
