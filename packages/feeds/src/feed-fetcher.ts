import type { LookupFunction } from 'node:net';
import {
  type AddressPolicy,
  createGuardedAgent,
  type DecompressedBody,
  isPublicAddress,
  openDecompressed,
  readCappedBody,
  readCappedPieces,
} from '@newsroom/egress';
import type { FeedError } from './feed-error';
import {
  type FeedNotModified,
  type FetchedFeed,
  type FetchFeedRequest,
  fetchFollowingRedirects,
} from './feed-request';
import { toFetchError } from './to-fetch-error';

export type { FeedNotModified, FetchedFeed, FetchFeedRequest } from './feed-request';

/** Options for {@link createFeedFetcher}; every limit has a production default. */
export interface FeedFetcherOptions {
  /** Sent on every request so publishers can identify and contact us. */
  userAgent?: string;
  /** Overall deadline per fetch, covering connect, redirects and the whole body. Default 20 000 ms. */
  timeoutMs?: number;
  /** Maximum body size after decompression. Default 15 MiB. */
  maxBytes?: number;
  /** Maximum number of redirects followed. Default 5. */
  maxRedirects?: number;
  /**
   * Development and tests only: skip the address policy entirely (loopback, private networks and
   * cloud metadata become reachable). Default false. Never enable for publisher-supplied URLs.
   */
  allowPrivateAddresses?: boolean;
  /** Replaces the address policy (tests use it to allow exactly 127.0.0.1). Wins over allowPrivateAddresses. */
  isAllowedAddress?: AddressPolicy;
  /** Replaces dns.lookup (a caching resolver, or a fake one in tests); its answers are still checked. */
  lookup?: LookupFunction;
}

export type FetchFeedResult = FeedNotModified | FetchedFeed;

/**
 * A feed response whose body is still to be read: decompressed pieces as they arrive, under the
 * fetch's deadline; reading rejects only with FeedError. close() stops the download (the
 * connection is dropped) and must be called when the caller stops reading early.
 */
export interface OpenedFeed {
  notModified: false;
  body: AsyncIterable<Buffer>;
  contentType: string | null;
  etag: string | null;
  lastModified: string | null;
  finalUrl: string;
  close(): void;
}

export type OpenFeedResult = FeedNotModified | OpenedFeed;

/** A fetcher owning one connection pool; call close() when done with it. */
export interface FeedFetcher {
  /** Fetches a feed; rejects only with {@link FeedError}. */
  fetch(request: FetchFeedRequest): Promise<FetchFeedResult>;
  /**
   * Fetches a feed's headers and hands its body over piece by piece, so a caller that needs only its
   * beginning (the preview) can stop the download. The size cap still applies to what is read.
   */
  open(request: FetchFeedRequest): Promise<OpenFeedResult>;
  close(): Promise<void>;
}

export const DEFAULT_USER_AGENT = 'NewsroomFeedFetcher/1.0 (+https://github.com/newsroom)';
export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_MAX_BYTES = 15 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;

const MAX_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Creates a fetcher that only talks http(s) to public addresses (checked at connect time on every
 * hop), follows at most `maxRedirects` redirects itself, enforces an overall deadline and a
 * decompressed size cap, and does conditional GETs from stored validators.
 */
export function createFeedFetcher(options: FeedFetcherOptions = {}): FeedFetcher {
  const settings = {
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
    isAllowedAddress:
      options.isAllowedAddress ?? (options.allowPrivateAddresses ? () => true : isPublicAddress),
  };
  const agent = createGuardedAgent({
    isAllowedAddress: settings.isAllowedAddress,
    ...(options.lookup ? { lookup: options.lookup } : {}),
    connectTimeoutMs: Math.min(MAX_CONNECT_TIMEOUT_MS, settings.timeoutMs),
    maxResponseBytes: settings.maxBytes,
  });

  const deadline = (feedRequest: FetchFeedRequest) => {
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    const signal = feedRequest.signal ? AbortSignal.any([timeout, feedRequest.signal]) : timeout;
    const toError = (error: unknown) =>
      toFetchError(error, { timeout, callerSignal: feedRequest.signal, maxBytes: settings.maxBytes });
    return { signal, toError };
  };

  return {
    async fetch(feedRequest) {
      const { signal, toError } = deadline(feedRequest);
      try {
        const response = await fetchFollowingRedirects(agent, settings, feedRequest, signal);
        if (response.notModified) return response;
        const { body, encoding, ...meta } = response;
        return { ...meta, body: await readCappedBody(body, encoding, settings.maxBytes, signal) };
      } catch (error) {
        throw toError(error);
      }
    },
    async open(feedRequest) {
      const { signal, toError } = deadline(feedRequest);
      let response: Awaited<ReturnType<typeof fetchFollowingRedirects>>;
      try {
        response = await fetchFollowingRedirects(agent, settings, feedRequest, signal);
      } catch (error) {
        throw toError(error);
      }
      if (response.notModified) return response;
      const { body, encoding, ...meta } = response;
      let decompressed: DecompressedBody;
      try {
        decompressed = openDecompressed(body, encoding);
      } catch (error) {
        throw toError(error);
      }
      return {
        ...meta,
        body: withFetchErrors(readCappedPieces(decompressed.body, settings.maxBytes), toError),
        close: decompressed.close,
      };
    },
    close: () => agent.close(),
  };
}

/** The pieces as they come, failing only with FeedError (egress refusals put in the feed's words). */
async function* withFetchErrors(
  pieces: AsyncIterable<Buffer>,
  toError: (error: unknown) => FeedError,
): AsyncGenerator<Buffer> {
  try {
    yield* pieces;
  } catch (error) {
    throw toError(error);
  }
}
