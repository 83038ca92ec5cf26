import type { Readable } from 'node:stream';
import {
  type AddressPolicy,
  isIpLiteral,
  refusedAddressError,
  stripBrackets,
  tooLargeError,
} from '@newsroom/egress';
import { type Dispatcher, request } from 'undici';
import { FeedError } from './feed-error';
import { parseFeedUrl } from './feed-url';
import { httpStatusError } from './http-status-error';
import { headerRefreshSeconds } from './refresh-hints';

// One fetch of a feed up to its body: the conditional GET, the redirects followed by hand (each hop's address
// checked), 304 and error statuses. feed-fetcher.ts reads the body under the deadline and the size cap. The
// refusals thrown here are @newsroom/egress's; toFetchError puts them in the feed's words.

/** What to fetch, with the validators stored from the previous fetch. */
export interface FetchFeedRequest {
  url: string;
  etag?: string | null;
  lastModified?: string | null;
  /** Aborts the fetch early (e.g. on worker shutdown); the error code is then ABORTED. */
  signal?: AbortSignal;
}

/** The server answered 304: nothing changed. The validators are the ones to store. */
export interface FeedNotModified {
  notModified: true;
  etag: string | null;
  lastModified: string | null;
  /** How long the server says the response stays fresh (Cache-Control max-age, Expires), seconds; null: no hint. */
  refreshSeconds?: number | null;
  /**
   * Where the feed has moved for good: the URL reached through the permanent redirects (301/308) the
   * request met first, before any temporary one; null when the first answer was not a permanent redirect.
   */
  movedTo?: string | null;
}

/** A fetched, decompressed (not yet decoded) feed body. */
export interface FetchedFeed {
  notModified: false;
  body: Buffer;
  contentType: string | null;
  etag: string | null;
  lastModified: string | null;
  /** The URL after redirects; relative links in the feed resolve against it. */
  finalUrl: string;
  /** How long the server says the response stays fresh (Cache-Control max-age, Expires), seconds; null: no hint. */
  refreshSeconds?: number | null;
  /**
   * Where the feed has moved for good: the URL reached through the permanent redirects (301/308) the
   * request met first, before any temporary one; null when the first answer was not a permanent redirect.
   */
  movedTo?: string | null;
}

const ACCEPT =
  'application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.8';
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

export type FetcherSettings = {
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  isAllowedAddress: AddressPolicy;
};

/** A 2xx response whose (still compressed) body is yet to be read. */
export interface FeedResponse extends Omit<FetchedFeed, 'body'> {
  body: Readable;
  encoding: string | undefined;
}

export async function fetchFollowingRedirects(
  agent: Dispatcher,
  settings: FetcherSettings,
  feedRequest: FetchFeedRequest,
  signal: AbortSignal,
): Promise<FeedNotModified | FeedResponse> {
  let url = parseFeedUrl(feedRequest.url);
  const headers = requestHeaders(settings.userAgent, feedRequest);
  let movedTo: string | null = null;
  let onlyPermanentRedirects = true;

  for (let redirects = 0; ; redirects++) {
    // Checked here as well as in the connector so that a refused literal never reaches undici at all.
    if (isIpLiteral(url.hostname) && !settings.isAllowedAddress(stripBrackets(url.hostname))) {
      throw refusedAddressError();
    }
    const response = await request(url, {
      dispatcher: agent,
      method: 'GET',
      headers,
      signal,
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs,
    });
    const status = response.statusCode;

    if (REDIRECT_STATUSES.has(status)) {
      await discard(response.body);
      const location = headerValue(response.headers, 'location');
      if (!location) throw httpStatusError(status, undefined);
      if (redirects >= settings.maxRedirects) {
        throw new FeedError(
          'TOO_MANY_REDIRECTS',
          `The feed redirected more than ${settings.maxRedirects} times.`,
        );
      }
      url = parseFeedUrl(location, url);
      onlyPermanentRedirects &&= status === 301 || status === 308;
      if (onlyPermanentRedirects) movedTo = url.href;
      continue;
    }

    if (status === 304) {
      await discard(response.body);
      return {
        notModified: true,
        etag: headerValue(response.headers, 'etag') ?? feedRequest.etag ?? null,
        lastModified: headerValue(response.headers, 'last-modified') ?? feedRequest.lastModified ?? null,
        refreshSeconds: headerRefreshSeconds(response.headers),
        movedTo,
      };
    }

    if (status < 200 || status > 299) {
      await discard(response.body);
      throw httpStatusError(status, headerValue(response.headers, 'retry-after'));
    }

    const declaredLength = Number(headerValue(response.headers, 'content-length'));
    if (declaredLength > settings.maxBytes) {
      response.body.destroy();
      throw tooLargeError(settings.maxBytes);
    }
    return {
      notModified: false,
      body: response.body,
      encoding: headerValue(response.headers, 'content-encoding'),
      contentType: headerValue(response.headers, 'content-type') ?? null,
      etag: headerValue(response.headers, 'etag') ?? null,
      lastModified: headerValue(response.headers, 'last-modified') ?? null,
      finalUrl: url.href,
      refreshSeconds: headerRefreshSeconds(response.headers),
      movedTo,
    };
  }
}

function requestHeaders(userAgent: string, feedRequest: FetchFeedRequest): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': userAgent,
    accept: ACCEPT,
    'accept-encoding': 'gzip, deflate, br',
  };
  if (feedRequest.etag) headers['if-none-match'] = feedRequest.etag;
  if (feedRequest.lastModified) headers['if-modified-since'] = feedRequest.lastModified;
  return headers;
}

function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function discard(body: Dispatcher.ResponseData['body']): Promise<void> {
  // dump() reads a little so the connection can be reused, then gives up and closes it.
  await body.dump().catch(() => undefined);
}
