import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientContentPlugin } from '../client/client-content.plugin';
import { clientKeyGuard } from '../client/client-scope';
import { requireRole } from '../plugins/auth';
import { clientRoutes } from './client/client.routes';
import { healthRoutes } from './health.routes';
import { siteKeyRoutes } from './site/site-keys.routes';

/**
 * The route tree. Each area gets its authentication once, as a hook on its subtree:
 * - public: health, login
 * - administrators (JWT, role admin): articles, publishers, sites, uploads
 * - publisher self-service (JWT, role publisher): /publisher/me*
 * - child sites (API key): /client/*
 */
export const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(healthRoutes);

  await app.register(
    async (api) => {
      await api.register(async (admin) => {
        admin.addHook('onRequest', requireRole('admin'));
        await admin.register(siteKeyRoutes, { prefix: '/site' });
      });

      await api.register(async (publisher) => {
        publisher.addHook('onRequest', requireRole('publisher'));
      });

      await api.register(
        async (client) => {
          await client.register(clientContentPlugin);
          client.addHook('onRequest', clientKeyGuard);
          await client.register(clientRoutes);
        },
        { prefix: '/client' },
      );
    },
    { prefix: '/api/v1' },
  );
};
