import { parseRetryAfter } from '@newsroom/egress';
import { FeedError } from './feed-error';

// Client errors a later retry can fix: timeouts, "too early" and rate limiting.
const TRANSIENT_CLIENT_STATUSES: ReadonlySet<number> = new Set([408, 425, 429]);

/** Maps a non-success HTTP status to a FeedError, reading Retry-After on 429 and 503. */
export function httpStatusError(
  status: number,
  retryAfter: string | undefined,
  now: number = Date.now(),
): FeedError {
  const permanent = status < 500 && !TRANSIENT_CLIENT_STATUSES.has(status);
  const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(retryAfter, now) : undefined;
  return new FeedError('HTTP_STATUS', describeStatus(status), {
    permanent,
    httpStatus: status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

function describeStatus(status: number): string {
  if (status === 401 || status === 403) return `The feed server refused access (HTTP ${status}).`;
  if (status === 404) return 'The feed was not found (HTTP 404).';
  if (status === 410) return 'The feed has been removed permanently (HTTP 410).';
  if (status === 429) return 'The feed server asked us to slow down (HTTP 429).';
  if (status >= 500) return `The feed server had an error (HTTP ${status}).`;
  return `The feed server answered with HTTP ${status}.`;
}
