import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * An `onRequest` hook for the dashboard API's subtree: its answers carry tokens (a login's JWT, the
 * session's CSRF token) and content no child site may see yet, so no browser cache, proxy or back/forward
 * cache may keep them. Set before the handler runs, so 401s, 403s and errors carry it too.
 */
export function noStore(_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
  reply.header('cache-control', 'no-store');
  done();
}
