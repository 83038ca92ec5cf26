export type { ChangeEvent, ChangesOptions } from './change-feed.js';
export {
  type ClientArticle,
  createNewsroomClient,
  type JsonFeed,
  type NewsroomClient,
  type NewsroomClientOptions,
} from './client.js';
export { type ApiError, NewsroomApiError, unwrap } from './errors.js';
export { EtagCache } from './etag-cache.js';
export type { components, operations, paths } from './generated/openapi.js';
export type {
  FieldOf,
  ItemOf,
  ListQuery,
  PaginatedPath,
  SparseItemOf,
  SparsePage,
  WalkQuery,
} from './list-types.js';
export type { SyndicationKind, SyndicationOptions } from './syndication.js';
export {
  type ArticleDeletedEvent,
  type ArticlePublishedEvent,
  type ArticleUnpublishedEvent,
  type ArticleUpdatedEvent,
  type PublisherFeedFailedEvent,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookHeaders,
  WebhookVerificationError,
} from './webhooks.js';
