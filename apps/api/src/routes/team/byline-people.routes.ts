import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { findBylinePeople } from '@newsroom/domain';
import { BylinePeopleSchema } from '../../schemas/byline-people.schema';
import { errorResponses } from '../../schemas/error.schema';

/** The staff names the editor's byline picker offers (issue 32). Prefix /team. */
export const bylinePeopleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/bylines',
    {
      schema: {
        tags: ['team'],
        security: [{ bearerAuth: [] }],
        summary: 'Staff users who may be credited in a byline: id and display name only, by name',
        description:
          'Staff with a display name (set in their account), not suspended or deleted. A byline `{ name, userId }` credits one of them; free names need no entry here.',
        response: { 200: BylinePeopleSchema, ...errorResponses(401, 403) },
      },
    },
    async () => ({ data: await findBylinePeople(app.db) }),
  );
};
