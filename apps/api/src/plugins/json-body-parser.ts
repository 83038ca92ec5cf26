import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's body schema is all optional fields (e.g. a review decision's reason): no body, or an empty
     * one, is read as `{}`, so clients that called the route before it took a body keep working.
     */
    optionalBody?: boolean;
  }
}

/**
 * Fastify's own JSON parser (prototype-poisoning checks included), except that a route declaring no
 * body accepts an empty one: clients that always send `Content-Type: application/json` may call
 * `PUT /article/publish/:id` with nothing after it. A route with a body schema still answers an empty
 * body with INVALID_JSON, unless its config says `optionalBody`.
 */
export const jsonBodyParserPlugin = fp(async (app: FastifyInstance) => {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    const optional =
      request.routeOptions.schema?.body === undefined || request.routeOptions.config.optionalBody === true;
    if (optional && text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.routeOptions.config.optionalBody === true) request.body = {};
  });
});
