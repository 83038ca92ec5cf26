import sensible from '@fastify/sensible';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createPasswordHasher } from '@newsroom/domain';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { authPlugin } from './plugins/auth';
import { dashboardSessionPlugin } from './plugins/dashboard-session';
import { dashboardStatic } from './plugins/dashboard-static';
import { errorHandlerPlugin } from './plugins/error-handler';
import { feedFetcherPlugin } from './plugins/feed-fetcher';
import { openApiPlugin } from './plugins/openapi';
import { createValidatorCompiler } from './plugins/validator-compiler';
import { routes } from './routes';
import type { AppDeps } from './types';

export const bodyLimitBytes = 1024 * 1024;

/**
 * Builds the whole HTTP app from its infrastructure. server.ts and the tests call this same function,
 * so tests exercise exactly what runs in production (through `app.inject`).
 */
export async function buildApp(deps: AppDeps, options: FastifyServerOptions = {}) {
  const app = Fastify({
    bodyLimit: bodyLimitBytes,
    ...options,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(createValidatorCompiler());

  app.decorate('config', deps.config);
  app.decorate('db', deps.db);
  app.decorate('redis', deps.redis);
  app.decorate('feedImportQueue', deps.feedImportQueue);
  const passwords = createPasswordHasher(deps.config.bcryptCost);
  app.decorate('passwords', passwords);
  app.addHook('onClose', () => passwords.close());
  app.decorate('storage', deps.storage);

  await app.register(sensible);
  await app.register(errorHandlerPlugin);
  await app.register(openApiPlugin);
  await app.register(authPlugin);
  await app.register(dashboardSessionPlugin);
  await app.register(feedFetcherPlugin);
  await app.register(routes);
  await app.register(dashboardStatic);

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
