import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** How often, while closing, connections that have finished their last response are closed. */
const drainIntervalMs = 100;

/** Whether the process is on its way out (readiness answers 503); set by the server shell on SIGTERM. */
export interface Drain {
  readonly draining: boolean;
  /** From now on /ready answers 503 and every response closes its connection; requests are still served. */
  begin(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    drain: Drain;
  }
}

/**
 * Two phases of a graceful stop:
 * - **draining** (`app.drain.begin()`, before close): still serving, but /ready answers 503 so load balancers
 *   stop sending, and each response says `Connection: close`, so a client's keep-alive connection ends after
 *   the answer it got instead of being closed under its next request when the listener closes.
 * - **closing** (`app.close()`): Fastify closes the connections that are idle at that moment and then waits for
 *   the others. A keep-alive connection whose request was in flight becomes idle once its response is sent, but
 *   nothing closes it until keepAliveTimeout (72 s), far past the shutdown's deadline: close them as they go idle.
 */
export const drainOnClosePlugin = fp(async (app: FastifyInstance) => {
  const state = { draining: false };
  app.decorate('drain', {
    get draining() {
      return state.draining;
    },
    begin() {
      state.draining = true;
    },
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (state.draining) reply.header('connection', 'close');
    done();
  });
  let timer: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    timer = setInterval(() => app.server.closeIdleConnections(), drainIntervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
});
