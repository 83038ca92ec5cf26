// The domain's public surface, named: what the API, the worker, the CLI, the bench and the tests outside this package
// use. A name not listed here is internal to the domain (its own tests import it from its module).

export {
  articleFieldLimits,
  type Byline,
  type Correction,
  type FocalPoint,
  type ImageMeta,
} from './article-fields';
export type { VersionedArticle } from './articles/article';
export { insertArticle, replaceArticleSites } from './articles/article.repository';
export {
  changeArticleStatus,
  createArticle,
  deleteArticle,
  editArticle,
  getArticle,
  maxReviewReasonLength,
} from './articles/article.service';
export { applyBulkArticleAction } from './articles/article-bulk.service';
// Articles as a newsroom writes them (issue 32): bylines, standfirst, image metadata, corrections.
export type { ArticleEdit, CorrectionNote } from './articles/article-content-columns';
export { setArticleHostSites } from './articles/article-host-sites.service';
export { type ArticleAction, reviewDecisions } from './articles/article-lifecycle';
export {
  countFilteredArticlesByStatus,
  findArticleSummaries,
  listArticleSummaries,
} from './articles/article-listing.repository';
export { checkArticleSlug } from './articles/article-slug-check.service';
// Scheduled publishing, releases and embargo (issue 29)
export { assertNotEmbargoed } from './articles/embargo';
export type { RestoredArticle } from './articles/revisions/article-restore.service';
export { restoreArticleRevision } from './articles/revisions/article-restore.service';
export { measureRevisionStorage } from './articles/revisions/article-revision.repository';
export type {
  ArticleRevision,
  RevisionDiff,
  RevisionSummary,
} from './articles/revisions/article-revision.service';
export {
  diffArticleRevisions,
  getArticleRevision,
  listArticleRevisions,
} from './articles/revisions/article-revision.service';
// Article revisions (issue 30: history-revisions): recorded by the article write functions above.
export type { ArticleSnapshot } from './articles/revisions/article-snapshot';
export {
  articleSnapshot,
  notRestoredFields,
  notSnapshotColumns,
  notSnapshotFields,
} from './articles/revisions/article-snapshot';
export { compactArticleRevisions, compactionDelayMs } from './articles/revisions/revision-compaction';
export { autosaveCollapseMs } from './articles/revisions/revision-recorder';
export {
  defaultDraftRetentionDays,
  thinOldDraftRevisions,
} from './articles/revisions/revision-retention';
export type {
  RevisionActor,
  RevisionActorKind,
  RevisionSource,
  RevisionWrite,
} from './articles/revisions/revision-write';
export { systemWrite } from './articles/revisions/revision-write';
export type { AuditChainState, AuditFilter } from './audit/audit.repository';
export { findAuditChain } from './audit/audit.repository';
export {
  type AuditPage,
  type AuditVerification,
  appendAuditEvent,
  appendAuditEvents,
  listAuditEvents,
  pruneAuditLog,
  streamAuditEvents,
  verifyAuditChain,
} from './audit/audit.service';
// Audit log (issue 30): append-only, hash-chained record of administrative and security events.
export {
  type AuditActor,
  type AuditActorType,
  type AuditChanges,
  type AuditEvent,
  type AuditEventInput,
  auditValue,
} from './audit/audit-event';
export {
  auditedChange,
  type PendingAudit,
  pendingAudit,
  runAudited,
} from './audit/audit-unit';
// CDN edge (issue 33): surrogate keys of client answers, publishable keys, the purge outbox.
export {
  type ClaimedPurge,
  claimDueCdnPurges,
  completeCdnPurges,
  deferCdnPurges,
  findCdnPurgeBacklog,
  type PurgeRequest,
  upsertCdnPurges,
} from './cdn/cdn-purge.repository';
export { type PurgeRelayResult, relayCdnPurges } from './cdn/cdn-purge-relay.service';
export {
  articleSurrogateKeys,
  listSurrogateKeys,
  type PurgedChange,
  type SurrogateKeys,
  siteSurrogateKeys,
  surrogateKey,
  surrogateKeysOf,
  surrogateKeysToPurge,
} from './cdn/surrogate-keys';
export type { ChangePosition } from './changes/article-change';
export {
  ChangesExpiredError,
  currentChangePosition,
  pruneArticleChanges,
  readScopedChanges,
  type ScopedChangeItem,
  type ScopedChangePage,
} from './changes/article-change.service';
export { contentChangedChannel } from './changes/content-changed';
// Corrections (issue 32): an edit with a correction note and its article.corrected event, in one transaction.
export { editArticleAnnouncingCorrection } from './corrections/article-correction.service';
export { createDb, type Db, type DbOrTx, type DbPoolStats, poolStatsOf } from './db/create-db';
export { guardedSocket } from './db/guarded-socket';
export { isDatabaseUnavailable, isRecoveryConflict, isSearchTooComplex } from './db/pg-errors';
export { pingDatabase } from './db/ping';
export { PostgresListener, type PostgresListenerOptions } from './db/postgres-listener';
export type { ArticleStatus, Database, UserRole } from './db/tables';
export {
  ArticleEmbargoedError,
  AuditNotWrittenError,
  ConflictError,
  DomainError,
  DomainValidationError,
  InvalidTransitionError,
  NotFoundError,
  VersionMismatchError,
} from './errors';
export {
  type ArticleRenditions,
  type ImgproxySettings,
  imgproxyRenditions,
  imgproxyUrl,
  type Renditions,
  signImgproxyPath,
} from './images/imgproxy-renditions';
export { summariseFeedError } from './imports/feed-health';
export {
  getImportablePublisher,
  getPublisherFeedSettings,
  type ImportCounts,
  importFeedItems,
  recordUnchangedFeed,
} from './imports/feed-import.service';
export { type PreviewedItem, previewFeedItems } from './imports/feed-import-preview';
export { dueBy, nextFetchAfter } from './imports/fetch-schedule';
export { findImportedGuids } from './imports/imported-guids.repository';
export {
  findPublisherFeedSettings,
  isImportable,
  listImportablePublishers,
} from './imports/publisher-feed-settings.repository';
export { pauseAfterFailures } from './imports/publisher-feed-state.repository';
// Preview links (issue 29, time-preview): tokens that open one article, published or not.
export {
  digestPreviewToken,
  looksLikePreviewToken,
  type PreviewLink,
  previewLinkDefaultHours,
  previewLinkMaxHours,
  previewTokenPrefix,
} from './previews/preview-link';
export {
  createPreviewLink,
  findPreviewArticle,
  listPreviewLinks,
  type PreviewLinkRequest,
  previewArticleOf,
  revokePreviewLink,
} from './previews/preview-link.service';
export { clientArticleJson } from './published/client-article-json';
export { labelSlug } from './published/label-slug';
export { findListingOutline, streamPublishedArticles } from './published/listing-source';
export { findPlainArticlesPage } from './published/plain-listing.repository';
export type { PublishedArticle, PublishedArticleVersion } from './published/published-article';
export {
  findPublishedArticleBySlug,
  findPublishedArticlesByIds,
} from './published/published-article.repository';
export {
  type ListingPageRequest,
  listPublishedArticles,
  listPublishedVersions,
} from './published/published-article.service';
export {
  type Listing,
  type ListingOutline,
  type ListingPosition,
  tagSlugsOf,
} from './published/published-listing';
export { withRenditions } from './published/published-renditions';
export { countSearchMatches, searchCountCap } from './published/published-search.repository';
export {
  findTaxonomyTerms,
  type Taxonomy,
  type TaxonomyTerm,
} from './published/published-taxonomy.repository';
export { applySearchLanguage } from './published/search-language';
export {
  feedGoneError,
  getPublisherHistory,
  markFeedGone,
  notePermanentRedirect,
} from './publishers/feed-signals.service';
export type { Publisher, PublisherDetail } from './publishers/publisher';
export { replacePublisherDefaultSites } from './publishers/publisher.repository';
export {
  approvePublisher,
  createPublisher,
  deletePublisher,
  getPublisher,
  isNewFeedAddress,
  listArticlesOfPublisher,
  listPublisherArticles,
  listPublishers,
  maxFeedUrlLength,
  resumePublisherFeed,
  saveOwnFeed,
  saveOwnFeedReportingChange,
  setPublisherDisabled,
  updatePublisher,
} from './publishers/publisher.service';
export { listPublisherHistory } from './publishers/publisher-history.repository';
export { buildMonthlyReport, maxReportMonths } from './publishers/publisher-report';
export { parseWalPosition, replayFenceOf } from './replication/wal-position';
export {
  findPrimaryWalPosition,
  findReplayedWalPosition,
} from './replication/wal-position.repository';
export {
  nextScheduledDueAt,
  runDueScheduledActions,
  type ScheduleRunResult,
} from './schedule/schedule-runner.service';
export {
  assertDueAtAllowed,
  maxReleaseActions,
  maxScheduleAheadMs,
  type Release,
  type ScheduledAction,
  type ScheduledActionKind,
  type ScheduleStatus,
  scheduledActionKinds,
  scheduleStatuses,
} from './schedule/scheduled-action';
export type { ScheduledActionFilter } from './schedule/scheduled-action.repository';
export {
  type Actor,
  cancelRelease,
  cancelScheduledAction,
  createRelease,
  getRelease,
  getScheduledAction,
  listReleases,
  listScheduledActions,
  rescheduleRelease,
  rescheduleScheduledAction,
  scheduleArticleAction,
  setArticleEmbargo,
} from './schedule/scheduled-action.service';
export { type Clock, ManualClock, systemClock } from './shared/clock';
export type { PageRequest } from './shared/page';
export { digestApiKey, looksLikeSiteKey, publishableKeyPrefix, type SiteKeyKind } from './site-keys/site-key';
export { findSiteKeyOwnerByHash, recordSiteKeysUsed } from './site-keys/site-key.repository';
export { createSiteKey, listSiteKeys, revokeSiteKey } from './site-keys/site-key.service';
export { articleUrlOf } from './sites/article-url';
export type { Site } from './sites/site';
export {
  findAllAllowedOrigins,
  findSiteById,
  listSites,
  listSitesWithArticleCounts,
  resolveSiteIds,
} from './sites/site.repository';
export { createSite, deleteSite, editSite, getSite } from './sites/site.service';
export { publicBaseOf } from './sites/site-public-urls';
export {
  countPublishedOnSite,
  findNewsSitemapEntries,
  findSitemapEntries,
  type NewsSitemapEntry,
  type SitemapEntry,
} from './syndication/sitemap.repository';
// team-roles (issue 31): roles, grants, the policy, the team, invitations and resets (see team-roles.ts)
export * from './team-roles';
export { ensureAdministrator } from './users/administrator.service';
export { type BylinePerson, findBylinePeople } from './users/byline-people.repository';
export { verifyCredentials } from './users/login.service';
export { changeOwnPassword, resetPublisherPassword } from './users/password-change.service';
export { assertAcceptablePassword, createPasswordHasher, type PasswordHasher } from './users/password-hasher';
export { getProfile, type Profile, updateProfile } from './users/profile.service';
// Second factor (TOTP), recovery codes, security settings and the profile (issue 31, team-2fa).
export { markDashboardSessionSecondFactor } from './users/sessions/dashboard-session.repository';
export {
  endDashboardSession,
  resumeDashboardSession,
  startDashboardSession,
} from './users/sessions/dashboard-session.service';
export {
  type ChallengeKind,
  type ChallengeOutcome,
  challengeAttempts,
  challengeLifetimeMs,
  completeSecondFactorChallenge,
  startSecondFactorChallenge,
} from './users/two-factor/second-factor-challenge';
export { createSecretBox, type SecretBox } from './users/two-factor/secret-box';
export {
  getSecuritySettings,
  type SecuritySettings,
  updateSecuritySettings,
} from './users/two-factor/security-settings';
export { base32Decode, hotp, totpAt, totpPeriodSeconds, totpStepAt } from './users/two-factor/totp';
export {
  type CodeCheck,
  checkSecondFactorCode,
  codeLockout,
  confirmTotpEnrolment,
  disableTwoFactor,
  getTwoFactorStatus,
  isStaff,
  regenerateRecoveryCodes,
  type SecondFactorStanding,
  secondFactorStanding,
  startTotpEnrolment,
  type TwoFactorStatus,
  verifyOwnPassword,
} from './users/two-factor/two-factor.service';
export type { User } from './users/user';
export { findActiveUserById } from './users/user.repository';
export { recordFeedFailureWithWebhook } from './webhooks/feed-failed.service';
export {
  claimDueWebhookDeliveries,
  claimWebhookDeliveries,
  claimWebhookDelivery,
  failWebhookDeliveryUnsent,
  type WebhookClaimRequest,
} from './webhooks/webhook-attempt.repository';
export type {
  ClaimedWebhookDelivery,
  DueWebhookDelivery,
  WebhookAttemptResult,
} from './webhooks/webhook-delivery';
export {
  listWebhookDeliveries,
  listWebhookDeliveryAttempts,
  type MadeWebhookAttempt,
  pruneWebhookEvents,
  recordWebhookAttempt,
  recordWebhookAttempts,
  resendWebhookDelivery,
} from './webhooks/webhook-delivery.service';
export { type WebhookEventType, webhookEventTypes } from './webhooks/webhook-endpoint';
export {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  editWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
} from './webhooks/webhook-endpoint.service';
export type { FeedFailure } from './webhooks/webhook-event';
export { relayArticleChanges } from './webhooks/webhook-relay.service';
