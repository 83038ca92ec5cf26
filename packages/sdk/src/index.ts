export type { ChangeEvent, ChangesOptions } from './change-feed.js';
export {
  type ArticleField,
  type ArticleQuery,
  type ClientArticle,
  createNewsroomClient,
  type JsonFeed,
  type NewsroomClient,
  type NewsroomClientOptions,
  type SparseArticleOf,
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
