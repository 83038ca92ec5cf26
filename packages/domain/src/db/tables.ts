import type { Insertable, Selectable, Updateable } from 'kysely';
import type { CdnPurgePositionTable, CdnPurgeRequestTable, CdnPurgeTable } from './tables/cdn-tables';
import type {
  ArticleChangesHorizonTable,
  ArticleChangeTable,
  ArticleSiteTable,
  ArticleTable,
  DashboardSessionTable,
  PublisherDefaultSiteTable,
  PublisherHistoryTable,
  PublisherTable,
  SiteApiKeyTable,
  SiteTable,
  UserTable,
} from './tables/content-tables';
import type {
  ArticlePreviewLinkTable,
  ArticleRevisionCompactionTable,
  ArticleRevisionTable,
  ReleaseTable,
  ScheduledActionTable,
} from './tables/newsroom-tables';
import type {
  AuditChainTable,
  AuditLogTable,
  InvitationTable,
  PasswordResetTable,
  SecondFactorChallengeTable,
  SecuritySettingsTable,
  UserRecoveryCodeTable,
  UserSiteGrantTable,
  UserTotpTable,
} from './tables/security-tables';
import type {
  WebhookDeliveryAttemptTable,
  WebhookDeliveryTable,
  WebhookEndpointTable,
  WebhookEventTable,
  WebhookRelayPositionTable,
} from './tables/webhook-tables';

// The database as Kysely sees it: every table, by family in tables/ (one file each, so branches adding tables
// meet in this list only), and the row types the repositories use.

export type * from './tables/cdn-tables';
export type { ArticleStatus, SiteRole, UserRole } from './tables/columns';
export type * from './tables/content-tables';
export type * from './tables/newsroom-tables';
export type * from './tables/security-tables';
export type * from './tables/webhook-tables';

export interface Database {
  articles: ArticleTable;
  publishers: PublisherTable;
  publisher_history: PublisherHistoryTable;
  users: UserTable;
  sites: SiteTable;
  site_api_keys: SiteApiKeyTable;
  article_sites: ArticleSiteTable;
  publisher_default_sites: PublisherDefaultSiteTable;
  dashboard_sessions: DashboardSessionTable;
  article_changes: ArticleChangeTable;
  article_changes_horizon: ArticleChangesHorizonTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_events: WebhookEventTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_relay_position: WebhookRelayPositionTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptTable;
  article_preview_links: ArticlePreviewLinkTable;
  scheduled_actions: ScheduledActionTable;
  releases: ReleaseTable;
  article_revisions: ArticleRevisionTable;
  article_revision_compactions: ArticleRevisionCompactionTable;
  user_totp: UserTotpTable;
  user_recovery_codes: UserRecoveryCodeTable;
  second_factor_challenges: SecondFactorChallengeTable;
  security_settings: SecuritySettingsTable;
  cdn_purge_position: CdnPurgePositionTable;
  cdn_purge_requests: CdnPurgeRequestTable;
  cdn_purges: CdnPurgeTable;
  user_site_grants: UserSiteGrantTable;
  invitations: InvitationTable;
  password_resets: PasswordResetTable;
  audit_log: AuditLogTable;
  audit_chain: AuditChainTable;
}

export type ArticleRow = Selectable<ArticleTable>;
export type NewArticleRow = Insertable<ArticleTable>;
export type ArticleRowUpdate = Updateable<ArticleTable>;
export type PublisherRow = Selectable<PublisherTable>;
export type NewPublisherRow = Insertable<PublisherTable>;
export type PublisherRowUpdate = Updateable<PublisherTable>;
export type UserRow = Selectable<UserTable>;
export type NewUserRow = Insertable<UserTable>;
export type SiteRow = Selectable<SiteTable>;
export type NewSiteRow = Insertable<SiteTable>;
export type SiteRowUpdate = Updateable<SiteTable>;
export type SiteApiKeyRow = Selectable<SiteApiKeyTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
