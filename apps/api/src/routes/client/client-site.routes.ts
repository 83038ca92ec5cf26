import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { siteIdInScope } from '../../delivery/client-scope';
import { readSite } from '../../delivery/client-site';
import { sendClientRead } from '../../delivery/http-caching';
import { HttpError } from '../../http-error';
import { limitedBy } from '../../rate-limits/rate-limits.plugin';
import { ClientScopeQuerySchema, NotModifiedSchema } from '../../schemas/client-article.schema';
import { ClientSiteSchema } from '../../schemas/client-site.schema';
import { errorResponses } from '../../schemas/error.schema';
import { perKey } from './client.routes';

/**
 * GET /client/site: the key's own site (name, language, URL template, public feed and sitemap URLs).
 * Decision: the network key names a site with ?site= (400 SITE_REQUIRED otherwise), as the feeds do; the
 * list of sites is an administrator's (GET /api/v1/site).
 */
export const clientSiteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/site',
    {
      config: limitedBy(app.config.rateLimits.client, 'client', perKey),
      schema: {
        summary: "The key's site: name, language, article URL template, public feed and sitemap URLs",
        tags: ['client'],
        security: [{ apiKeyHeader: [] }, { apiKeyQuery: [] }],
        querystring: ClientScopeQuerySchema,
        response: {
          200: ClientSiteSchema,
          304: NotModifiedSchema,
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const siteId = await siteIdInScope(request, request.query.site);
      if (siteId === null) {
        throw new HttpError(400, 'SITE_REQUIRED', 'The network key names a site: ?site=<slug>');
      }
      return sendClientRead(request, reply, await readSite(app.clientContent.reads, siteId));
    },
  );
};
