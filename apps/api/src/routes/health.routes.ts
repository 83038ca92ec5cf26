import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pingDatabase } from '@newsroom/domain';
import { Type } from 'typebox';
import { withDeadline } from '../with-deadline';

const CheckStatus = Type.Union([Type.Literal('up'), Type.Literal('down')]);
const ReadySchema = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  checks: Type.Object({ postgres: CheckStatus, redis: CheckStatus }),
});

const checkTimeoutMs = 2_000;

async function probe(check: () => Promise<unknown>): Promise<'up' | 'down'> {
  try {
    await withDeadline(check(), checkTimeoutMs, () => new Error('timeout'));
    return 'up';
  } catch {
    return 'down';
  }
}

/** Probes run every few seconds: their request lines would drown the log, so they log at warn and above. */
const logLevel = 'warn';

/**
 * Liveness (the process answers) and readiness. Ready means "can serve client reads": Postgres answers, and
 * the process is not draining for a stop (drain-on-close.ts).
 * Redis is reported but does not decide it: without Redis, client and dashboard reads still work and only
 * logins and "import now" answer 503, so taking the replica out of a load balancer would refuse more.
 */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    {
      logLevel,
      schema: {
        tags: ['health'],
        summary: 'Liveness',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      logLevel,
      schema: {
        tags: ['health'],
        summary: 'Readiness: Postgres reachable (Redis reported, not required)',
        response: { 200: ReadySchema, 503: ReadySchema },
      },
    },
    async (_request, reply) => {
      const [postgres, redis] = await Promise.all([
        probe(() => pingDatabase(app.db)),
        probe(() => app.redis.ping()),
      ]);
      // Draining (SIGTERM): still serving, but on the way out; load balancers must stop sending here.
      const ready = postgres === 'up' && !app.drain.draining;
      return reply
        .status(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : 'not_ready', checks: { postgres, redis } });
    },
  );
};
