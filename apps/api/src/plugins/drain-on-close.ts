import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** How often, while closing, connections that have finished their last response are closed. */
const drainIntervalMs = 100;

/**
 * On close, Fastify closes the connections that are idle at that moment and then waits for the others. A
 * keep-alive connection whose request was in flight becomes idle once its response is sent, but nothing
 * closes it until keepAliveTimeout (72 s), far past the shutdown's deadline: close them as they go idle.
 */
export const drainOnClosePlugin = fp(async (app: FastifyInstance) => {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    timer = setInterval(() => app.server.closeIdleConnections(), drainIntervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
});
