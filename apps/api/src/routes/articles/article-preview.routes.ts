import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createPreviewLink, listPreviewLinks, revokePreviewLink } from '@newsroom/domain';
import { Type } from 'typebox';
import { ArticleIdParamsSchema } from '../../schemas/article.schema';
import { errorResponses } from '../../schemas/error.schema';
import {
  CreatedPreviewLinkSchema,
  CreatePreviewLinkBodySchema,
  PreviewLinkParamsSchema,
  PreviewLinkSchema,
} from '../../schemas/preview-link.schema';

const tags = ['articles'];
const security = [{ bearerAuth: [] }];

/** Administrators' preview links of an article (issue 29): create, list the live ones, revoke. Prefix /article. */
export const articlePreviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/:id/preview-links',
    {
      schema: {
        tags,
        security,
        summary:
          'Create a preview link: a token that reads this article, published or not, at GET /api/v1/client/preview/:token without an API key, until it expires (default 7 days) or is revoked. The token is shown once.',
        params: ArticleIdParamsSchema,
        body: CreatePreviewLinkBodySchema,
        response: { 201: CreatedPreviewLinkSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { expiresInHours, expiresAt, pinned } = request.body;
      const link = await createPreviewLink(app.db, request.params.id, {
        createdBy: request.user.id,
        expiresInHours,
        expiresAt: expiresAt === undefined ? undefined : new Date(expiresAt),
        pinned,
      });
      return reply.code(201).send({ ...link, path: `/api/v1/client/preview/${link.token}` });
    },
  );

  app.get(
    '/:id/preview-links',
    {
      schema: {
        tags,
        security,
        summary:
          "The article's preview links that still open (not expired, not revoked), newest first; never the tokens",
        params: ArticleIdParamsSchema,
        response: {
          200: Type.Object({ data: Type.Array(PreviewLinkSchema) }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({ data: await listPreviewLinks(app.db, request.params.id) }),
  );

  app.delete(
    '/:id/preview-links/:linkId',
    {
      schema: {
        tags,
        security,
        summary: 'Revoke a preview link: its token reads nothing from then on, on every API replica',
        params: PreviewLinkParamsSchema,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await revokePreviewLink(app.db, request.params.id, request.params.linkId);
      return reply.code(204).send(null);
    },
  );
};
