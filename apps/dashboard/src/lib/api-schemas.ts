// The API's schema modules, as types only (a path through the @newsroom/api workspace dependency).
// `import type` is erased by the compiler: the dashboard bundle never contains the API's code.
export type ArticleSchemas = typeof import('@newsroom/api/src/schemas/article.schema');
export type ArticleBulkSchemas = typeof import('@newsroom/api/src/schemas/article-bulk.schema');
export type AuthSchemas = typeof import('@newsroom/api/src/schemas/auth.schema');
export type ErrorSchemas = typeof import('@newsroom/api/src/schemas/error.schema');
export type FeedSchemas = typeof import('@newsroom/api/src/schemas/feed-import.schema');
export type PublisherSchemas = typeof import('@newsroom/api/src/schemas/publisher.schema');
export type SiteSchemas = typeof import('@newsroom/api/src/schemas/site.schema');
export type SiteKeySchemas = typeof import('@newsroom/api/src/schemas/site-key.schema');
export type PaginationSchemas = typeof import('@newsroom/api/src/schemas/pagination.schema');
export type UploadSchemas = typeof import('@newsroom/api/src/schemas/upload.schema');
export type WebhookSchemas = typeof import('@newsroom/api/src/schemas/webhook.schema');
