import sensible from '@fastify/sensible';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createPasswordHasher } from '@newsroom/domain';
import type { RedisClient } from '@newsroom/queue';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { auditPlugin } from './audit/audit.plugin';
import { SiteKeyUsage } from './delivery/site-key-usage';
import { httpTimeoutOptions } from './http-timeouts';
import { createApiMetrics } from './metrics/api-metrics';
import { authPlugin } from './plugins/auth';
import { answerClientError } from './plugins/client-error-handler';
import { drainOnClosePlugin } from './plugins/drain-on-close';
import { answerFrameworkError, errorHandlerPlugin } from './plugins/error-handler';
import { feedFetcherPlugin } from './plugins/feed-fetcher';
import { jsonBodyParserPlugin } from './plugins/json-body-parser';
import { metricsPlugin } from './plugins/metrics';
import { openApiPlugin } from './plugins/openapi';
import { secondFactorPlugin } from './plugins/second-factor';
import { createValidatorCompiler } from './plugins/validator-compiler';
import { rateLimitsPlugin } from './rate-limits/rate-limits.plugin';
import { requestIdOf, requestIdPlugin } from './request-id';
import { OneLineRequestLog } from './request-log';
import { routes } from './routes';
import { DeviceCookies } from './routes/auth/device-cookie';
import { LoginLimiter } from './routes/auth/login-limiter';
import type { AppDeps } from './types';

export const bodyLimitBytes = 1024 * 1024;

/** TRUST_PROXY as Fastify takes it: a hop count trusts that many proxies in front of us (a function in Fastify's typings). */
function fastifyTrustProxy(hops: number | boolean | string) {
  return typeof hops === 'number' ? (_address: string, hop: number) => hop < hops : hops;
}

/**
 * Builds the whole HTTP app from its infrastructure. server.ts and the tests call this same function,
 * so tests exercise exactly what runs in production (through `app.inject`).
 */
export async function buildApp(deps: AppDeps, options: FastifyServerOptions = {}) {
  const app = Fastify({
    bodyLimit: bodyLimitBytes,
    ...httpTimeoutOptions(deps.config),
    // X-Request-Id is read (and checked) by genReqId; Fastify's requestIdHeader would take it unchecked.
    requestIdHeader: false,
    genReqId: requestIdOf,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // One line per request instead of two (request-log.ts).
    logController: new OneLineRequestLog(deps.config.requestLogLevel),
    // Here, not in server.ts: tests then see the client addresses production sees (login limiter).
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    ...options,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(createValidatorCompiler());

  app.decorate('config', deps.config);
  app.decorate('db', deps.db);
  app.decorate('replicaDb', deps.replicaDb);
  app.decorate<RedisClient>('redis', deps.redis);
  app.decorate('feedImportQueue', deps.feedImportQueue);
  const passwords = createPasswordHasher(deps.config.bcryptCost);
  app.decorate('passwords', passwords);
  app.addHook('onClose', () => passwords.close());
  app.decorate('loginLimiter', new LoginLimiter(deps.redis, deps.config.redis.queuePrefix));
  app.decorate('deviceCookies', new DeviceCookies(deps.config.jwt.secret, deps.config.env === 'production'));
  app.decorate('storage', deps.storage);
  const siteKeyUsage = new SiteKeyUsage(deps.db, app.log);
  app.decorate('siteKeyUsage', siteKeyUsage);
  app.addHook('onClose', () => siteKeyUsage.close());
  const metrics = deps.metricsRegistry && createApiMetrics(deps.metricsRegistry, deps.db);
  app.decorate('metrics', metrics);

  await app.register(sensible);
  await app.register(errorHandlerPlugin);
  await app.register(drainOnClosePlugin);
  await app.register(requestIdPlugin);
  await app.register(jsonBodyParserPlugin);
  await app.register(openApiPlugin);
  // After the error handler (its route answers failures in our shape), before every other route (its hooks).
  if (metrics) await app.register(metricsPlugin, { metrics, token: deps.config.metrics.token });
  await app.register(authPlugin);
  await app.register(secondFactorPlugin);
  await app.register(rateLimitsPlugin);
  await app.register(feedFetcherPlugin);
  // Before the routes: it audits them as they are added.
  if (deps.auditRoutes !== false) await app.register(auditPlugin);
  await app.register(routes);

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
