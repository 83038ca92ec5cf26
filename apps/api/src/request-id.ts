import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** What a caller's X-Request-Id may look like; anything else is replaced (it ends up in logs and jobs). */
const wellFormed = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's genReqId: the caller's X-Request-Id when well-formed (a proxy or child site correlating its
 * own logs), else a random UUID. Fastify's own `requestIdHeader` would take any value unchecked.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && wellFormed.test(given) ? given : randomUUID();
}

/** Returns the request id on every response (errors and 404s included), as X-Request-Id. */
export const requestIdPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
});
