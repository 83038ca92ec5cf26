// Request and response types of the API, derived from its own TypeBox schemas (type-only imports:
// nothing of the API reaches the bundle). Never retype a field here: add the schema's Static instead.

import type { Static, TSchema } from 'typebox';
import type {
  ArticleBulkSchemas,
  ArticleSchemas,
  AuthSchemas,
  ErrorSchemas,
  FeedSchemas,
  PaginationSchemas,
  PublisherSchemas,
  SiteKeySchemas,
  SiteSchemas,
  UploadSchemas,
  WebhookSchemas,
} from './api-schemas';

/** A value as JSON carries it: the API's Date fields arrive as ISO strings. */
export type Wire<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

/** The JSON shape of a schema's value. */
export type Json<S extends TSchema> = Wire<Static<S>>;

export type ErrorBody = Json<ErrorSchemas['ErrorSchema']>;
export type FieldIssue = NonNullable<ErrorBody['details']>[number];

export type User = Json<AuthSchemas['UserSchema']>;
export type Role = User['role'];
export type LoginBody = Json<AuthSchemas['LoginBodySchema']>;
export type Session = Json<AuthSchemas['SessionResponseSchema']>;

export type Publisher = Json<PublisherSchemas['PublisherSchema']>;
export type PublisherDetail = Json<PublisherSchemas['PublisherDetailSchema']>;
export type PublisherState = Json<PublisherSchemas['PublisherStateSchema']>;
export type FeedHealth = Json<PublisherSchemas['FeedHealthSchema']>;
export type PublisherList = Json<PublisherSchemas['PublisherListSchema']>;
export type PublisherListQuery = Partial<Json<PublisherSchemas['PublisherListQuerySchema']>>;
export type ArticleCounts = Json<PublisherSchemas['ArticleCountsSchema']>;
export type CreatePublisherBody = Json<PublisherSchemas['CreatePublisherBodySchema']>;
export type UpdatePublisherBody = Json<PublisherSchemas['UpdatePublisherBodySchema']>;
export type SaveFeedBody = Json<PublisherSchemas['SaveFeedBodySchema']>;
export type MonthlyReport = Json<PublisherSchemas['MonthlyReportSchema']>;
export type ReportQuery = Json<PublisherSchemas['ReportQuerySchema']>;
export type PublisherArticle = Json<PublisherSchemas['PublisherArticleSchema']>;
export type ArticleStatus = PublisherArticle['status'];
export type OwnArticles = Json<PublisherSchemas['OwnArticlesSchema']>;

export type ImportJob = Json<FeedSchemas['ImportJobSchema']>;
export type ImportStatus = Json<FeedSchemas['ImportStatusSchema']>;
export type FeedPreview = Json<FeedSchemas['FeedPreviewSchema']>;
export type PreviewArticle = Json<FeedSchemas['PreviewArticleSchema']>;
export type TestFeedBody = Json<FeedSchemas['TestFeedBodySchema']>;

export type Site = Json<SiteSchemas['SiteSchema']>;
export type SiteListItem = Json<SiteSchemas['SiteListItemSchema']>;
export type SiteList = Json<SiteSchemas['SiteListResponseSchema']>;
export type CreateSiteBody = Json<SiteSchemas['CreateSiteBodySchema']>;
export type EditSiteBody = Json<SiteSchemas['EditSiteBodySchema']>;

export type SiteKey = Json<SiteKeySchemas['SiteKeySchema']>;
export type CreatedSiteKey = Json<SiteKeySchemas['CreatedSiteKeySchema']>;
export interface SiteKeyList {
  data: SiteKey[];
}

export type Article = Json<ArticleSchemas['ArticleSchema']>;
export type ArticleSummary = Json<ArticleSchemas['ArticleSummarySchema']>;
export interface ArticleSummaryPage {
  data: ArticleSummary[];
  meta: Json<PaginationSchemas['PaginationMetaSchema']>;
}
export type ArticleList = Json<ArticleSchemas['ArticleListResponseSchema']>;
export type ArticleStatusCounts = Json<ArticleSchemas['ArticleCountsSchema']>;
export type BulkAction = Json<ArticleBulkSchemas['BulkArticleActionSchema']>;
export type BulkArticleResponse = Json<ArticleBulkSchemas['BulkArticleResponseSchema']>;
export type BulkArticleResult = Json<ArticleBulkSchemas['BulkArticleResultSchema']>;
export type BulkArticleFailure = Extract<BulkArticleResult, { ok: false }>;
export type SlugCheck = Json<ArticleBulkSchemas['SlugCheckSchema']>;
export type CreateArticleBody = Json<ArticleSchemas['CreateArticleBodySchema']>;
export type EditArticleBody = Json<ArticleSchemas['EditArticleBodySchema']>;
export type SignStorageBody = Json<UploadSchemas['SignStorageBodySchema']>;
export type SignedUpload = Json<UploadSchemas['SignedUploadSchema']>;

export type WebhookEndpoint = Json<WebhookSchemas['WebhookEndpointSchema']>;
export type WebhookEventType = Json<WebhookSchemas['WebhookEventTypeSchema']>;
export type CreatedWebhookEndpoint = Json<WebhookSchemas['CreatedWebhookEndpointSchema']>;
export type CreateWebhookBody = Json<WebhookSchemas['CreateWebhookBodySchema']>;
export type EditWebhookBody = Json<WebhookSchemas['EditWebhookBodySchema']>;
export type RotatedWebhookSecret = Json<WebhookSchemas['RotatedSecretSchema']>;
export type WebhookDelivery = Json<WebhookSchemas['WebhookDeliverySchema']>;
export type WebhookDeliveryAttemptList = Json<WebhookSchemas['WebhookDeliveryAttemptListSchema']>;
export interface WebhookEndpointList {
  data: WebhookEndpoint[];
}
export interface WebhookDeliveryPage {
  data: WebhookDelivery[];
  meta: Json<PaginationSchemas['PaginationMetaSchema']>;
}
