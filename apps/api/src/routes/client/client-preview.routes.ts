import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { sendClientRead } from '../../delivery/http-caching';
import { readPreview } from '../../delivery/preview-read';
import { HttpError } from '../../http-error';
import { clientAddressKey } from '../../rate-limits/client-address';
import { limitedBy } from '../../rate-limits/rate-limits.plugin';
import { ClientArticleSchema, NotModifiedSchema } from '../../schemas/client-article.schema';
import { errorResponses } from '../../schemas/error.schema';
import { PreviewQuerySchema, PreviewTokenParamsSchema } from '../../schemas/preview-link.schema';

const previewHeaders = {
  // Every answer, 200 or 404: nobody keeps a preview, search engines do not index it, and the token in the
  // URL is not sent on as a Referer if a browser opens it.
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex, nofollow',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

function setPreviewHeaders(_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
  reply.headers(previewHeaders);
  done();
}

/**
 * `GET /api/v1/client/preview/:token`: registered beside the client subtree, not in it, because it takes no API
 * key (the token is the secret; a key is neither needed nor looked at). Rate-limited per caller address in the
 * client routes' budget.
 */
export const clientPreviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', setPreviewHeaders);
  app.get(
    '/preview/:token',
    {
      config: limitedBy(app.config.rateLimits.client, 'client-preview', (request) =>
        clientAddressKey(request.ip),
      ),
      schema: {
        summary:
          'One article by preview token, published or not, in the shape of /client/article/:slug (no API key)',
        description:
          'Made by an editor (POST /api/v1/article/:id/preview-links). Answers `Cache-Control: no-store` and `X-Robots-Tag: noindex`. An unknown, expired or revoked token is the same 404. A token opens only its own article; a preview never appears in any list, feed, sitemap, search or change feed.',
        tags: ['client'],
        security: [],
        params: PreviewTokenParamsSchema,
        querystring: PreviewQuerySchema,
        response: { 200: ClientArticleSchema, 304: NotModifiedSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request, reply) => {
      const answer = await readPreview(
        { db: app.db, imgproxy: app.config.imgproxy },
        { token: request.params.token, site: request.query.site },
      );
      if (!answer) {
        throw new HttpError(
          404,
          'PREVIEW_NOT_FOUND',
          'No such preview link, or it has expired or been revoked',
        );
      }
      return sendClientRead(request, reply, answer);
    },
  );
};
