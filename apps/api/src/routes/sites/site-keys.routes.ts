import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createSiteKey, listSiteKeys, revokeSiteKey } from '@newsroom/domain';
import { Type } from 'typebox';
import { errorResponses } from '../../schemas/error.schema';
import {
  CreatedSiteKeySchema,
  CreateSiteKeyBodySchema,
  SiteKeyParamsSchema,
  SiteKeySchema,
  SiteParamsSchema,
} from '../../schemas/site-key.schema';

const tags = ['sites'];
const security: Record<string, string[]>[] = [{ bearerAuth: [] }];

/** Administrators manage each site's client API keys (registered under /site in the administrator subtree). */
export const siteKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/:id/keys',
    {
      schema: {
        summary: 'Create an API key for the site (the key is shown once)',
        tags,
        security,
        params: SiteParamsSchema,
        body: CreateSiteKeyBodySchema,
        response: { 201: CreatedSiteKeySchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { name, kind } = request.body;
      const { secret, ...key } = await createSiteKey(request.server.db, id, name, kind);
      return reply.code(201).send({ ...key, key: secret });
    },
  );

  app.get(
    '/:id/keys',
    {
      schema: {
        summary: "The site's API keys (never the keys themselves), newest first",
        tags,
        security,
        params: SiteParamsSchema,
        response: {
          200: Type.Object({ data: Type.Array(SiteKeySchema) }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({ data: await listSiteKeys(request.server.db, request.params.id) }),
  );

  app.delete(
    '/:id/keys/:keyId',
    {
      schema: {
        summary: 'Revoke an API key: requests with it are refused from then on',
        tags,
        security,
        params: SiteKeyParamsSchema,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await revokeSiteKey(request.server.db, request.params.id, request.params.keyId);
      return reply.code(204).send(null);
    },
  );
};
