import type { FeedFetcher, FeedNotModified, FetchFeedRequest } from './feed-fetcher';
import type { FeedItem } from './feed-item';
import { parseFeed } from './parse-feed';

/** Options for {@link readFeed}. */
export interface ReadFeedOptions {
  /** Keep only the first N items in feed order (feeds usually list newest first). */
  maxItems?: number;
  /** Keep images on private and internal hosts (see ParseFeedOptions); default false. */
  allowPrivateImages?: boolean;
}

/** A fetched and parsed feed with the validators to store for the next conditional GET. */
export interface FeedContent {
  notModified: false;
  title: string;
  link: string | null;
  items: FeedItem[];
  etag: string | null;
  lastModified: string | null;
  finalUrl: string;
}

export type ReadFeedResult = FeedNotModified | FeedContent;

/**
 * Fetches and parses a feed in one call (the worker's hourly import and the API's preview).
 * Rejects only with FeedError.
 */
export async function readFeed(
  fetcher: FeedFetcher,
  request: FetchFeedRequest,
  options: ReadFeedOptions = {},
): Promise<ReadFeedResult> {
  const fetched = await fetcher.fetch(request);
  if (fetched.notModified) return fetched;
  const feed = await parseFeed(fetched.body, {
    url: fetched.finalUrl,
    contentType: fetched.contentType,
    ...(options.maxItems === undefined ? {} : { maxItems: options.maxItems }),
    allowPrivateImages: options.allowPrivateImages ?? false,
  });
  return {
    notModified: false,
    title: feed.title,
    link: feed.link,
    items: feed.items,
    etag: fetched.etag,
    lastModified: fetched.lastModified,
    finalUrl: fetched.finalUrl,
  };
}
