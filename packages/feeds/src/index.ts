export { type DecodedFeedBody, decodeFeedBody } from './decode-feed-body';
export { type FeedEntry, streamFeedEntries } from './feed-entries';
export { FeedError, type FeedErrorCode } from './feed-error';
export {
  createFeedFetcher,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  type FeedFetcher,
  type FeedFetcherOptions,
  type FeedNotModified,
  type FetchedFeed,
  type FetchFeedRequest,
  type FetchFeedResult,
  type OpenedFeed,
  type OpenFeedResult,
} from './feed-fetcher';
export type { FeedItem } from './feed-item';
export { type FeedItemSplit, splitFeedItems, withItemsLeftOut } from './feed-item-split';
export type { FeedAuthor, FeedImageMeta } from './item-metadata';
export { type FeedStream, type ParsedFeed, type ParseFeedOptions, parseFeed, streamFeed } from './parse-feed';
export { type FeedContent, type ReadFeedOptions, type ReadFeedResult, readFeed } from './read-feed';
export { type FeedPreviewContent, type FeedPreviewOptions, readFeedPreview } from './read-feed-preview';
export { feedRefreshSeconds, headerRefreshSeconds } from './refresh-hints';
