// A parser that insists on resolving relative URLs against one base for a whole document (feedparser >= 2.5
// does so inside item HTML too) is given this placeholder base instead, because each piece of content must
// resolve against its own link (a feed on feeds.example.com often carries "/img/x.jpg" meaning
// www.example.com). toAbsoluteHttpUrl turns placeholder URLs back into relative ones before resolving them
// against the right base; the sanitiser does the same with every URL it keeps. The directory depth keeps
// "../x", "x" and "/x" distinguishable.
const PLACEHOLDER_ORIGIN = 'https://unresolved.invalid';
const PLACEHOLDER_DIRS = ['feedparser-base', 'a', 'b', 'c', 'd', 'e', 'f', 'g'];

/** The base URL handed to such a parser (feedparser) in place of the document's URL (see toAbsoluteHttpUrl). */
export const PLACEHOLDER_BASE = `${PLACEHOLDER_ORIGIN}/${PLACEHOLDER_DIRS.join('/')}/`;

/** True for a URL resolved against {@link PLACEHOLDER_BASE}. */
export function isPlaceholderUrl(value: string): boolean {
  return value.startsWith(`${PLACEHOLDER_ORIGIN}/`);
}

/** Undoes a resolution against {@link PLACEHOLDER_BASE}; other values pass through unchanged. */
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
 * Resolves a URL found in content (HTML, a feed's fields) to an absolute http(s) URL, or null when that is impossible
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
