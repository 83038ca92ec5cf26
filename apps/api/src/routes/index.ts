import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientContentPlugin } from '../delivery/client-content.plugin';
import { clientPreflightRoutes } from '../delivery/client-cors';
import { clientKeyGuard } from '../delivery/client-scope';
import { devOutboxRoutes } from '../mail/dev-outbox.routes';
import { mailPlugin } from '../mail/mail.plugin';
import { dashboardSessionPlugin } from '../plugins/dashboard-session';
import { dashboardStatic } from '../plugins/dashboard-static';
import { noStore } from '../plugins/no-store';
import { docsRoutes } from '../plugins/openapi';
import { policyGuard, policyScopeGuard } from '../plugins/policy-guard';
import { securityHeadersPlugin } from '../plugins/security-headers';
import { accountRoutes } from './account/account.routes';
import { queueDashboardRoutes } from './admin/queue-dashboard.routes';
import { articleRoutes } from './articles/article.routes';
import { articleBulkRoutes } from './articles/article-bulk.routes';
import { articleEmbargoRoutes } from './articles/article-embargo.routes';
import { articlePreviewRoutes } from './articles/article-preview.routes';
import { articleRevisionRoutes } from './articles/article-revision.routes';
import { articleStatusRoutes } from './articles/article-status.routes';
import { auditRoutes } from './audit/audit.routes';
import { authRoutes } from './auth/auth.routes';
import { permissionsRoutes } from './auth/permissions.routes';
import { recoveryRoutes } from './auth/recovery.routes';
import { secondFactorRoutes } from './auth/second-factor.routes';
import { sessionRoutes } from './auth/session.routes';
import { clientRoutes } from './client/client.routes';
import { clientChangesRoutes } from './client/client-changes.routes';
import { clientPreviewRoutes } from './client/client-preview.routes';
import { clientSiteRoutes } from './client/client-site.routes';
import { syndicationRoutes } from './client/syndication.routes';
import { healthRoutes } from './health.routes';
import { feedImportRoutes } from './publisher/feed-import.routes';
import { publisherAdminRoutes } from './publisher/publisher-admin.routes';
import { publisherSelfRoutes } from './publisher/publisher-self.routes';
import { testFeedRoutes } from './publisher/test-feed.routes';
import { releaseRoutes, scheduledActionRoutes } from './schedule/schedule.routes';
import { securitySettingsRoutes } from './security/security-settings.routes';
import { siteRoutes } from './sites/site.routes';
import { siteKeyRoutes } from './sites/site-keys.routes';
import { bylinePeopleRoutes } from './team/byline-people.routes';
import { teamRoutes } from './team/team.routes';
import { signStorageRoutes } from './uploads/sign-storage.routes';
import { webhookRoutes } from './webhooks/webhook.routes';

/**
 * The route tree. Each area gets its authentication once, as a hook on its subtree:
 * - public: health, login
 * - administrators (JWT, role admin): articles, publishers, sites, uploads, webhooks
 * - publisher self-service (JWT, role publisher): /publisher/me*
 * - child sites (API key): /client/*
 */
export const routes: FastifyPluginAsyncTypebox = async (app) => {
  // Machine-facing: probes and the client API, JSON for servers; no helmet (see security-headers.ts).
  await app.register(healthRoutes);
  await app.register(
    async (client) => {
      await client.register(clientContentPlugin);
      client.addHook('onRequest', clientKeyGuard);
      await client.register(clientPreflightRoutes);
      await client.register(clientRoutes);
      await client.register(clientChangesRoutes);
      await client.register(syndicationRoutes);
      await client.register(clientSiteRoutes);
    },
    { prefix: '/api/v1/client' },
  );
  // Preview links: beside the client subtree, not in it, because the token is the secret (no API key).
  await app.register(clientPreviewRoutes, { prefix: '/api/v1/client' });
  // Browser-facing: everything else, with helmet's headers and the Content-Security-Policy.
  await app.register(browserFacingRoutes);
};

/** What browsers open: the dashboard (at the site root), its API, the API docs and the queue dashboard. */
const browserFacingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(securityHeadersPlugin);
  // Here, not for the whole app: @fastify/cookie adds an onSend hook to every route of its context, and the
  // client API (servers, no cookies) would run it on every read.
  await app.register(dashboardSessionPlugin);
  await app.register(mailPlugin);
  await app.register(devOutboxRoutes);
  await app.register(docsRoutes);
  await app.register(queueDashboardRoutes);
  await app.register(dashboardStatic);

  await app.register(
    async (api) => {
      // Every answer of the dashboard API, whatever its route or status (the client routes cache their own).
      api.addHook('onRequest', noStore);
      // Public login; /auth/me authenticates itself (any role).
      await api.register(authRoutes, { prefix: '/auth' });
      await api.register(sessionRoutes, { prefix: '/auth' });
      // The second step of a sign-in (public), and the signed-in user's own account (any role; 2FA for staff).
      await api.register(secondFactorRoutes, { prefix: '/auth' });
      await api.register(accountRoutes, { prefix: '/account' });
      await api.register(permissionsRoutes, { prefix: '/auth' });
      await api.register(recoveryRoutes, { prefix: '/auth' });

      // The policy (packages/domain/src/policy) guards both subtrees: a role check before validation, the
      // scope (article, site, host sites) after parsing. Unlisted operations are for administrators only.
      await api.register(async (admin) => {
        admin.addHook('onRequest', policyGuard);
        admin.addHook('preValidation', policyScopeGuard);
        await admin.register(articleRoutes, { prefix: '/article' });
        await admin.register(articleStatusRoutes, { prefix: '/article' });
        await admin.register(articleBulkRoutes, { prefix: '/article' });
        await admin.register(articlePreviewRoutes, { prefix: '/article' });
        await admin.register(articleRevisionRoutes, { prefix: '/article' });
        await admin.register(siteRoutes, { prefix: '/site' });
        await admin.register(signStorageRoutes, { prefix: '/sign-storage' });
        await admin.register(publisherAdminRoutes, { prefix: '/publisher' });
        await admin.register(siteKeyRoutes, { prefix: '/site' });
        await admin.register(feedImportRoutes, { prefix: '/publisher' });
        await admin.register(webhookRoutes, { prefix: '/webhooks' });
        await admin.register(auditRoutes, { prefix: '/audit' });
        await admin.register(articleEmbargoRoutes, { prefix: '/article' });
        await admin.register(scheduledActionRoutes, { prefix: '/scheduled-actions' });
        await admin.register(releaseRoutes, { prefix: '/releases' });
        await admin.register(securitySettingsRoutes, { prefix: '/security-settings' });
        await admin.register(teamRoutes, { prefix: '/users' });
        await admin.register(bylinePeopleRoutes, { prefix: '/team' });
      });

      await api.register(async (publisher) => {
        publisher.addHook('onRequest', policyGuard);
        publisher.addHook('preValidation', policyScopeGuard);
        await publisher.register(publisherSelfRoutes, { prefix: '/publisher/me' });
        await publisher.register(testFeedRoutes, { prefix: '/publisher' });
      });
    },
    { prefix: '/api/v1' },
  );
};
