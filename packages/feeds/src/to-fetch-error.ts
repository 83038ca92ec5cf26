import { type EgressError, findEgressError } from '@newsroom/egress';
import { FeedError, findFeedError } from './feed-error';

// Error codes from Node and undici are safe to show and help publishers (ECONNREFUSED, ENOTFOUND...).
const CODES_SAFE_TO_SHOW = /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/;
const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

export interface FetchErrorContext {
  /** The fetch's own deadline signal: if it fired, whatever failed failed because of it. */
  timeout: AbortSignal;
  callerSignal: AbortSignal | undefined;
  maxBytes: number;
}

/** Maps anything a fetch can throw (our errors, egress refusals, undici, zlib, aborts) to one FeedError. */
export function toFetchError(error: unknown, context: FetchErrorContext): FeedError {
  const feedError = findFeedError(error);
  if (feedError) return feedError;
  const egressError = findEgressError(error);
  if (egressError) return fromEgressError(egressError, context.maxBytes);
  if (context.timeout.aborted) {
    return new FeedError('TIMEOUT', 'The feed server took too long to respond.', { cause: error });
  }
  if (context.callerSignal?.aborted) {
    return new FeedError('ABORTED', 'The feed fetch was cancelled.', { cause: error });
  }

  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return tooLargeError(context.maxBytes);
  if (typeof code === 'string' && TIMEOUT_CODES.has(code)) {
    return new FeedError('TIMEOUT', 'The feed server took too long to respond.', { cause: error });
  }
  const detail = typeof code === 'string' && CODES_SAFE_TO_SHOW.test(code) ? ` (${code})` : '';
  return new FeedError('NETWORK', `Could not download the feed${detail}.`, { cause: error });
}

/** An egress refusal in the feed's words: the codes and messages publishers see. */
function fromEgressError(error: EgressError, maxBytes: number): FeedError {
  switch (error.code) {
    case 'REFUSED_ADDRESS':
      return new FeedError(
        'REFUSED_ADDRESS',
        'The feed address points to a private, local or reserved network and cannot be fetched.',
      );
    case 'TOO_LARGE':
      return tooLargeError(maxBytes);
    case 'UNSUPPORTED_ENCODING':
      return new FeedError('BAD_RESPONSE', 'The feed server used an unsupported content encoding.');
    case 'CORRUPT_ENCODING':
      return new FeedError('BAD_RESPONSE', 'The feed server sent a corrupt compressed response.', {
        cause: error.cause,
      });
  }
}

function tooLargeError(maxBytes: number): FeedError {
  const mebibytes = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
  return new FeedError('TOO_LARGE', `The feed is larger than the ${mebibytes} MiB limit.`);
}
