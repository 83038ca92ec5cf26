export {
  type ApiError,
  type ClientArticle,
  createNewsroomClient,
  type FieldOf,
  type ItemOf,
  type JsonFeed,
  type ListQuery,
  NewsroomApiError,
  type NewsroomClient,
  type NewsroomClientOptions,
  type PaginatedPath,
  type SparseItemOf,
  type SparsePage,
  unwrap,
} from './client.js';
export { EtagCache } from './etag-cache.js';
export type { components, operations, paths } from './generated/openapi.js';
