import type { UserRole } from '../db/tables';

/**
 * Who may call an operation, besides the administrator (who may call every operation, listed or not):
 * - a dashboard role (`editor`, `contributor`, `reviewer` are held per site through grants; `publisher` and
 *   `admin` are account kinds), or `signed-in` (any dashboard user);
 * - `anonymous`: anyone, no credentials; `session-cookie`: the dashboard's cookie session itself;
 *   `site-key`: a child site with its API key; `metrics-token`: the Prometheus scraper.
 */
export type PolicyCaller =
  | UserRole
  | 'signed-in'
  | 'anonymous'
  | 'session-cookie'
  | 'site-key'
  | 'metrics-token';

/**
 * What the caller's role must cover (docs/permissions.md):
 * - `any`: nothing more, the role is enough;
 * - `listed`: a listing, filtered in its query to what the caller may see (`visible`);
 * - `visible`: the article (path `id`) was created by the caller, or is on a site where the caller is editor, or
 *   is not a draft and is on a site where the caller holds any grant;
 * - `article`: the caller holds the row's role on one of the article's host sites, or the article has no host
 *   site, the caller created it and the caller's own role is the row's;
 * - `own-draft`: as `article`, and the caller created it and it is a draft;
 * - `site`: the caller holds the row's role on the site (path `id`);
 * - `self`: the caller's own account (publisher self-service, the signed-in user's own data);
 * - `named-articles`: the articles a request names in its body (`articleId`, `actions[].articleId`) or query
 *   (`articleId`): at least one, and the caller holds the row's role on each, as for `article` (scheduling,
 *   whose article is in the body, not the path);
 * - `scheduled-action`: the article of the scheduled action (path `id`), as for `article`;
 * - `release`: every article of the release (path `id`), as for `named-articles`.
 * A `hostSites` list in a request body is checked too: each site it adds to the article or takes off must be one
 * where the caller holds a role the operation allows (the sites the article stays on need none).
 */
export type PolicyScope =
  | 'any'
  | 'listed'
  | 'visible'
  | 'article'
  | 'own-draft'
  | 'site'
  | 'self'
  | 'named-articles'
  | 'scheduled-action'
  | 'release';

export type PolicyRow = readonly [operationId: string, caller: PolicyCaller, scope: PolicyScope];

/**
 * The policy: one row per (operation, caller). The API's guards read it (apps/api/src/plugins/policy-guard.ts),
 * the OpenAPI document publishes it per operation (`x-permissions`), the dashboard shows only the controls it
 * allows (GET /api/v1/auth/permissions), and test/policy-matrix.test.ts calls every operation as every role in
 * and out of scope against it. An operation without a row is for administrators only; a test names every
 * operation of the OpenAPI document that has no row. One line per row (branches add rows in parallel).
 */
export const policyTable: readonly PolicyRow[] = [
  ['getHealth', 'anonymous', 'any'],
  ['getReadiness', 'anonymous', 'any'],
  ['getMetrics', 'metrics-token', 'any'],

  ['listClientArticles', 'site-key', 'any'],
  ['listClientPartnerArticles', 'site-key', 'any'],
  ['getClientArticle', 'site-key', 'any'],
  ['streamAllClientArticles', 'site-key', 'any'],
  ['listClientTags', 'site-key', 'any'],
  ['listClientCategories', 'site-key', 'any'],
  ['listClientSections', 'site-key', 'any'],
  ['listClientChanges', 'site-key', 'any'],
  ['getClientRssFeed', 'site-key', 'any'],
  ['getClientJsonFeed', 'site-key', 'any'],
  ['getClientNewsSitemap', 'site-key', 'any'],
  ['getClientSitemap', 'site-key', 'any'],
  ['getClientSite', 'site-key', 'any'],

  ['logIn', 'anonymous', 'any'],
  ['createSession', 'anonymous', 'any'],
  ['deleteSession', 'anonymous', 'any'],
  ['getSession', 'session-cookie', 'self'],
  ['getCurrentUser', 'signed-in', 'self'],
  ['changePassword', 'signed-in', 'self'],
  ['getOwnPermissions', 'signed-in', 'self'],
  ['getInvitation', 'anonymous', 'any'],
  ['acceptInvitation', 'anonymous', 'any'],
  ['requestPasswordReset', 'anonymous', 'any'],
  ['resetPassword', 'anonymous', 'any'],

  ['listArticles', 'editor', 'listed'],
  ['listArticles', 'contributor', 'listed'],
  ['listArticles', 'reviewer', 'listed'],
  ['createArticle', 'editor', 'any'],
  ['createArticle', 'contributor', 'any'],
  ['getArticle', 'editor', 'visible'],
  ['getArticle', 'contributor', 'visible'],
  ['getArticle', 'reviewer', 'visible'],
  ['updateArticle', 'editor', 'article'],
  ['updateArticle', 'contributor', 'own-draft'],
  ['deleteArticle', 'editor', 'article'],
  ['deleteArticle', 'contributor', 'own-draft'],
  ['hostArticleOnSite', 'editor', 'article'],
  ['hostArticleOnSite', 'contributor', 'own-draft'],
  ['listPendingArticles', 'editor', 'listed'],
  ['listPendingArticles', 'reviewer', 'listed'],
  ['publishArticle', 'editor', 'article'],
  ['unpublishArticle', 'editor', 'article'],
  ['approveArticle', 'editor', 'article'],
  ['approveArticle', 'reviewer', 'article'],
  ['rejectArticle', 'editor', 'article'],
  ['rejectArticle', 'reviewer', 'article'],
  ['moveArticleBackToPending', 'editor', 'article'],
  ['moveArticleBackToPending', 'reviewer', 'article'],
  ['submitArticle', 'editor', 'article'],
  ['submitArticle', 'contributor', 'own-draft'],
  ['sendBackArticle', 'editor', 'article'],
  ['sendBackArticle', 'reviewer', 'article'],
  ['bulkUpdateArticles', 'admin', 'any'],
  ['checkArticleSlugAvailable', 'editor', 'any'],
  ['checkArticleSlugAvailable', 'contributor', 'any'],

  ['listSites', 'editor', 'any'],
  ['listSites', 'contributor', 'any'],
  ['listSites', 'reviewer', 'any'],
  ['getSite', 'editor', 'site'],
  ['getSite', 'contributor', 'site'],
  ['getSite', 'reviewer', 'site'],
  ['createSite', 'admin', 'any'],
  ['updateSite', 'admin', 'any'],
  ['deleteSite', 'admin', 'any'],
  ['createSiteKey', 'admin', 'any'],
  ['listSiteKeys', 'admin', 'any'],
  ['revokeSiteKey', 'admin', 'any'],

  ['signStorageUpload', 'editor', 'any'],
  ['signStorageUpload', 'contributor', 'any'],

  ['createWebhook', 'admin', 'any'],
  ['listWebhooks', 'admin', 'any'],
  ['getWebhook', 'admin', 'any'],
  ['updateWebhook', 'admin', 'any'],
  ['deleteWebhook', 'admin', 'any'],
  ['rotateWebhookSecret', 'admin', 'any'],
  ['listWebhookDeliveries', 'admin', 'any'],
  ['resendWebhookDelivery', 'admin', 'any'],
  ['listWebhookDeliveryAttempts', 'admin', 'any'],

  ['createPublisher', 'admin', 'any'],
  ['listPublishers', 'admin', 'any'],
  ['getPublisherReports', 'admin', 'any'],
  ['getPublisher', 'admin', 'any'],
  ['updatePublisher', 'admin', 'any'],
  ['deletePublisher', 'admin', 'any'],
  ['listPublisherArticles', 'admin', 'any'],
  ['approvePublisher', 'admin', 'any'],
  ['disablePublisher', 'admin', 'any'],
  ['enablePublisher', 'admin', 'any'],
  ['resumePublisherFeed', 'admin', 'any'],
  ['setPublisherPassword', 'admin', 'any'],
  ['startPublisherImport', 'admin', 'any'],
  ['getPublisherImport', 'admin', 'any'],
  ['getPublisherHistory', 'admin', 'any'],
  ['testPublisherFeed', 'admin', 'any'],
  ['getOwnPublisher', 'publisher', 'self'],
  ['updateOwnPublisherFeed', 'publisher', 'self'],
  ['resumeOwnPublisherFeed', 'publisher', 'self'],
  ['listOwnPublisherArticles', 'publisher', 'self'],
  ['testOwnPublisherFeed', 'publisher', 'self'],

  ['listUsers', 'admin', 'any'],
  ['inviteUser', 'admin', 'any'],
  ['listInvitations', 'admin', 'any'],
  ['revokeInvitation', 'admin', 'any'],
  ['updateUser', 'admin', 'any'],
  ['suspendUser', 'admin', 'any'],
  ['reinstateUser', 'admin', 'any'],
  ['deleteUser', 'admin', 'any'],
  ['listBylinePeople', 'editor', 'any'],
  ['listBylinePeople', 'contributor', 'any'],

  // Rows for the operations of the branches merged alongside (time-schedule, time-preview, history-revisions,
  // team-2fa): administrators only for their admin routes, as before the merge; widen per role deliberately.
  ['getClientPreview', 'anonymous', 'any'],
  ['completeLogInWithSecondFactor', 'anonymous', 'any'],
  ['completeSessionWithSecondFactor', 'anonymous', 'any'],
  ['getOwnProfile', 'signed-in', 'self'],
  ['updateOwnProfile', 'signed-in', 'self'],
  ['getOwnTwoFactorStatus', 'editor', 'self'],
  ['getOwnTwoFactorStatus', 'contributor', 'self'],
  ['getOwnTwoFactorStatus', 'reviewer', 'self'],
  ['startTwoFactorEnrolment', 'editor', 'self'],
  ['startTwoFactorEnrolment', 'contributor', 'self'],
  ['startTwoFactorEnrolment', 'reviewer', 'self'],
  ['confirmTwoFactorEnrolment', 'editor', 'self'],
  ['confirmTwoFactorEnrolment', 'contributor', 'self'],
  ['confirmTwoFactorEnrolment', 'reviewer', 'self'],
  ['disableTwoFactor', 'editor', 'self'],
  ['disableTwoFactor', 'contributor', 'self'],
  ['disableTwoFactor', 'reviewer', 'self'],
  ['regenerateRecoveryCodes', 'editor', 'self'],
  ['regenerateRecoveryCodes', 'contributor', 'self'],
  ['regenerateRecoveryCodes', 'reviewer', 'self'],
  ['createArticlePreviewLink', 'admin', 'any'],
  ['createArticlePreviewLink', 'editor', 'article'],
  ['listArticlePreviewLinks', 'admin', 'any'],
  ['listArticlePreviewLinks', 'editor', 'article'],
  ['revokeArticlePreviewLink', 'admin', 'any'],
  ['revokeArticlePreviewLink', 'editor', 'article'],
  ['listArticleRevisions', 'admin', 'any'],
  ['listArticleRevisions', 'editor', 'article'],
  ['diffArticleRevisions', 'admin', 'any'],
  ['diffArticleRevisions', 'editor', 'article'],
  ['getArticleRevision', 'admin', 'any'],
  ['getArticleRevision', 'editor', 'article'],
  ['restoreArticleRevision', 'admin', 'any'],
  ['restoreArticleRevision', 'editor', 'article'],
  ['setArticleEmbargo', 'admin', 'any'],
  ['setArticleEmbargo', 'editor', 'article'],
  ['listScheduledActions', 'admin', 'any'],
  ['listScheduledActions', 'editor', 'named-articles'],
  ['scheduleArticleAction', 'admin', 'any'],
  ['scheduleArticleAction', 'editor', 'named-articles'],
  ['rescheduleScheduledAction', 'admin', 'any'],
  ['rescheduleScheduledAction', 'editor', 'scheduled-action'],
  ['cancelScheduledAction', 'admin', 'any'],
  ['cancelScheduledAction', 'editor', 'scheduled-action'],
  ['listReleases', 'admin', 'any'],
  ['createRelease', 'admin', 'any'],
  ['createRelease', 'editor', 'named-articles'],
  ['getRelease', 'admin', 'any'],
  ['getRelease', 'editor', 'release'],
  ['rescheduleRelease', 'admin', 'any'],
  ['rescheduleRelease', 'editor', 'release'],
  ['cancelRelease', 'admin', 'any'],
  ['cancelRelease', 'editor', 'release'],
  ['getSecuritySettings', 'admin', 'any'],
  ['updateSecuritySettings', 'admin', 'any'],
  // The audit log (docs/audit.md): administrators only.
  ['listAuditEvents', 'admin', 'any'],
  ['exportAuditEvents', 'admin', 'any'],
];
