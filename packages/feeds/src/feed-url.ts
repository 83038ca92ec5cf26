import { FeedError } from './feed-error';

/**
 * Parses a feed URL and accepts only http and https without embedded credentials
 * (credentials would be logged and shown in previews).
 */
export function parseFeedUrl(value: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch (error) {
    throw new FeedError('INVALID_URL', 'The feed URL is not a valid URL.', { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FeedError('INVALID_URL', 'Only http and https feed URLs are supported.');
  }
  if (url.username !== '' || url.password !== '') {
    throw new FeedError('INVALID_URL', 'Feed URLs with embedded user names or passwords are not supported.');
  }
  url.hash = '';
  return url;
}

// feedparser (>= 2.5) rewrites every relative URL in the document, including those inside item HTML,
// against one base for the whole feed. Item content must resolve against the item's own link (a feed on
// feeds.example.com often carries "/img/x.jpg" meaning www.example.com), so feedparser gets this
// placeholder base and toAbsoluteHttpUrl turns placeholder URLs back into relative ones before resolving
// them against the right base. The directory depth keeps "../x", "x" and "/x" distinguishable.
const PLACEHOLDER_ORIGIN = 'https://unresolved.invalid';
const PLACEHOLDER_DIRS = ['feedparser-base', 'a', 'b', 'c', 'd', 'e', 'f', 'g'];

/** The base URL handed to feedparser in place of the feed URL (see toAbsoluteHttpUrl). */
export const PLACEHOLDER_BASE = `${PLACEHOLDER_ORIGIN}/${PLACEHOLDER_DIRS.join('/')}/`;

/** True for a URL feedparser resolved against {@link PLACEHOLDER_BASE}. */
export function isPlaceholderUrl(value: string): boolean {
  return value.startsWith(`${PLACEHOLDER_ORIGIN}/`);
}

/** Undoes feedparser's resolution against {@link PLACEHOLDER_BASE}; other values pass through unchanged. */
export function undoPlaceholderBase(value: string): string {
  if (!isPlaceholderUrl(value)) return value;
  const url = new URL(value);
  const segments = url.pathname.split('/').slice(1);
  let shared = 0;
  while (
    shared < PLACEHOLDER_DIRS.length &&
    shared < segments.length - 1 &&
    segments[shared] === PLACEHOLDER_DIRS[shared]
  ) {
    shared++;
  }
  const rest = segments.slice(shared).join('/') + url.search + url.hash;
  if (shared === 0) return `/${rest}`;
  return '../'.repeat(PLACEHOLDER_DIRS.length - shared) + rest;
}

/**
 * Resolves a URL found in feed content to an absolute http(s) URL, or null when that is impossible
 * (no base for a relative URL, or another scheme such as javascript: or data:).
 */
export function toAbsoluteHttpUrl(
  value: string | null | undefined,
  base: string | null | undefined,
): string | null {
  if (!value) return null;
  const trimmed = undoPlaceholderBase(value.trim());
  if (trimmed === '') return null;
  const url = tryParseUrl(trimmed) ?? (base ? tryParseUrl(trimmed, base) : undefined);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.href : null;
}

function tryParseUrl(value: string, base?: string): URL | undefined {
  try {
    return new URL(value, base);
  } catch {
    return undefined;
  }
}
