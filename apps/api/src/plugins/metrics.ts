import { bearerTokenMatches } from '@newsroom/metrics';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import { HttpError } from '../http-error';
import type { ApiMetrics } from '../metrics/api-metrics';
import { errorResponses } from '../schemas/error.schema';

export const metricsPath = '/metrics';
const loginRoute = '/api/v1/auth/login';

/** The route *pattern* (never the raw URL: bounded label values); requests no route matched share one. */
const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? 'unmatched';

const errorCodePattern = /^[A-Z][A-Z0-9_]{0,63}$/;

/** The `code` of a serialised error body; anything else (a stream, no code, an odd one) is UNKNOWN. */
function errorCodeOf(payload: unknown): string {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return 'UNKNOWN';
  try {
    const code = (JSON.parse(payload.toString()) as { code?: unknown }).code;
    return typeof code === 'string' && errorCodePattern.test(code) ? code : 'UNKNOWN';
  } catch {
    return 'UNKNOWN';
  }
}

/**
 * Measures every request (duration by route pattern and status class, requests in flight, 429s by route and
 * code) and serves the registry as Prometheus text at GET /metrics to holders of METRICS_TOKEN. Counting
 * from hooks, not from inside the limiters, sees every refusal whoever raised it. Scrapes themselves are
 * neither measured nor logged at info. Register it after the error handler and before the routes: a route's
 * error handler is the one set when its plugin finished loading, while hooks reach routes registered later.
 */
export const metricsPlugin = fp<{ metrics: ApiMetrics; token: string | undefined }>(
  async (app: FastifyInstance, { metrics, token }) => {
    const { requestDuration, requestsInFlight, tooManyRequests, loginLockouts, registry } = metrics;

    const ended = () => requestsInFlight.dec();
    app.addHook('onRequest', (request, reply, done) => {
      if (request.routeOptions.url !== metricsPath) {
        requestsInFlight.inc();
        // 'close' comes once however the response ends, also when the client leaves before it is complete
        // (so `on`, with one function for all: no closure and no once-wrapper per request).
        reply.raw.on('close', ended);
      }
      done();
    });

    app.addHook('onSend', (request, reply, payload, done) => {
      if (reply.statusCode === 429) {
        const route = routeOf(request);
        tooManyRequests.inc({ route, code: errorCodeOf(payload) });
        if (route === loginRoute) loginLockouts.inc();
      }
      done(null, payload);
    });

    app.addHook('onResponse', (request, reply, done) => {
      if (request.routeOptions.url !== metricsPath) {
        const labels = {
          method: request.method,
          route: routeOf(request),
          status_class: `${Math.floor(reply.statusCode / 100)}xx`,
        };
        requestDuration.observe(labels, reply.elapsedTime / 1000);
      }
      done();
    });

    // Without a token nothing is served: the route does not exist (404).
    if (token === undefined) return;
    app.get(
      metricsPath,
      {
        logLevel: 'warn',
        schema: {
          tags: ['health'],
          summary: 'Prometheus metrics (text exposition format); needs Authorization: Bearer <METRICS_TOKEN>',
          security: [{ metricsToken: [] }],
          response: {
            200: {
              description: 'The metrics in the Prometheus text exposition format',
              content: { 'text/plain': { schema: Type.String() } },
            },
            ...errorResponses(401),
          },
        },
      },
      async (request, reply) => {
        if (!bearerTokenMatches(request.headers.authorization, token)) {
          throw new HttpError(401, 'UNAUTHORIZED', 'A valid metrics token is required', {
            'www-authenticate': 'Bearer',
          });
        }
        const body = await registry.metrics();
        return reply.header('cache-control', 'no-store').type(registry.contentType).send(body);
      },
    );
  },
  { name: 'metrics' },
);
