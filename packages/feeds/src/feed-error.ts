import { findInCauses } from '@newsroom/egress';

/** Stable machine-readable reasons a feed could not be fetched or read. */
export type FeedErrorCode =
  | 'INVALID_URL'
  | 'REFUSED_ADDRESS'
  | 'TOO_MANY_REDIRECTS'
  | 'HTTP_STATUS'
  | 'TIMEOUT'
  | 'TOO_LARGE'
  | 'NETWORK'
  | 'BAD_RESPONSE'
  | 'NOT_A_FEED'
  | 'ABORTED';

/** Optional details attached to a {@link FeedError}. */
export interface FeedErrorDetails {
  /** Overrides the default permanence of the code (used for HTTP statuses). */
  permanent?: boolean;
  httpStatus?: number;
  retryAfterMs?: number;
  cause?: unknown;
}

// Retrying cannot fix these without someone changing the feed URL or the publisher's server.
const PERMANENT_CODES: ReadonlySet<FeedErrorCode> = new Set([
  'INVALID_URL',
  'REFUSED_ADDRESS',
  'TOO_MANY_REDIRECTS',
  'TOO_LARGE',
  'NOT_A_FEED',
]);

/**
 * The one error type thrown by this package.
 *
 * `message` is written for publishers (no stack, no internal addresses); `code` is stable and safe to
 * branch on; `permanent` tells a job whether retrying can help (404/410, not a feed, refused address,
 * invalid URL are permanent; timeouts, 5xx, 429 and network failures are transient).
 */
export class FeedError extends Error {
  override readonly name = 'FeedError';
  readonly code: FeedErrorCode;
  readonly permanent: boolean;
  readonly httpStatus?: number;
  /** Milliseconds the server asked us to wait (Retry-After on 429/503). */
  readonly retryAfterMs?: number;

  constructor(code: FeedErrorCode, message: string, details: FeedErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.permanent = details.permanent ?? PERMANENT_CODES.has(code);
    if (details.httpStatus !== undefined) this.httpStatus = details.httpStatus;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }
}

/** Finds a FeedError in an error's cause chain (undici may wrap errors raised inside its connector). */
export function findFeedError(error: unknown): FeedError | undefined {
  return findInCauses(error, FeedError);
}
