import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Fastify's own JSON parser (prototype-poisoning checks included), except that a route declaring no
 * body accepts an empty one: clients that always send `Content-Type: application/json` may call
 * `PUT /article/publish/:id` with nothing after it. A route with a body schema still answers an empty
 * body with INVALID_JSON.
 */
export const jsonBodyParserPlugin = fp(async (app: FastifyInstance) => {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (request.routeOptions.schema?.body === undefined && text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });
});
