import { isPublicImageUrl } from '@newsroom/egress';
import sanitizeHtml from 'sanitize-html';
import { toAbsoluteHttpUrl } from './content-url';

// Ordinary article markup; anything else is dropped (its text kept) by the allowlist.
const ALLOWED_TAGS = [
  'p br hr div span a img figure figcaption picture h1 h2 h3 h4 h5 h6 ul ol li dl dt dd',
  'blockquote q cite pre code em strong b i u s del ins sub sup small mark abbr time',
  'table caption thead tbody tfoot tr th td colgroup col',
]
  .join(' ')
  .split(' ');

const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  blockquote: ['cite'],
  q: ['cite'],
  abbr: ['title'],
  time: ['datetime'],
  ol: ['start', 'reversed'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
  col: ['span'],
  colgroup: ['span'],
};

// Their content is not fallback text a reader should see, so it goes with the tag.
const DISCARD_WITH_CONTENT = 'script style noscript textarea option template iframe object svg math'.split(
  ' ',
);

// Share buttons and counters that feed services inject into every item (Miniflux blocks the same).
const BLOCKED_IMAGE_URLS = [
  /^https?:\/\/feeds\.feedburner\.com\/~(ff|r)\//i,
  /^https?:\/\/feeds\.wordpress\.com\/1\.0\//i,
  /^https?:\/\/(pixel\.wp\.com|stats\.wordpress\.com)\//i,
];

/**
 * Sanitises an item's HTML with an allowlist: no scripts, styles, iframes, embeds, forms or event
 * handlers; href/src/cite resolved against `baseUrl` and kept only when they end up http(s) (or mailto
 * for links); 1x1 tracking pixels, images without a usable src and (unless `images` allows them)
 * images on private or internal hosts are dropped; links get rel="noopener noreferrer".
 */
export function sanitizeBody(
  html: string | null | undefined,
  baseUrl: string | null,
  images: ImagePolicy = {},
): string {
  if (!html) return '';
  return sanitizeHtml(html, sanitizeOptions(baseUrl, images)).trim();
}

/** Which image addresses an item may keep. */
export interface ImagePolicy {
  /**
   * Keep images on private, loopback and internal hosts (development and tests, with
   * FEED_ALLOW_PRIVATE_ADDRESSES). Default false: they are dropped (isPublicImageUrl).
   */
  allowPrivateImages?: boolean;
  /**
   * Keep images under these URL prefixes whatever their host: the service's own upload storage, which in
   * development is on loopback (an editor's uploaded picture must not vanish from the body on save).
   */
  trustedImagePrefixes?: readonly string[];
}

/** Whether `src`, normalised (so `..` cannot climb out), sits under one of `prefixes`. */
function underPrefix(src: string, prefixes: readonly string[]): boolean {
  if (prefixes.length === 0) return false;
  let href: string;
  try {
    href = new URL(src).href;
  } catch {
    return false;
  }
  return prefixes.some((prefix) => href.startsWith(`${prefix.replace(/\/+$/, '')}/`));
}

/** sanitizeBody's sanitize-html options for an item whose URLs resolve against `baseUrl`. */
export function sanitizeOptions(baseUrl: string | null, images: ImagePolicy = {}): sanitizeHtml.IOptions {
  const trusted = images.trustedImagePrefixes ?? [];
  const refusedHost = (src: string) =>
    !images.allowPrivateImages && !isPublicImageUrl(src) && !underPrefix(src, trusted);
  return {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: ALLOWED_ATTRIBUTES,
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
    // Relative and protocol-relative URLs were already resolved; anything left relative is unusable.
    allowProtocolRelative: false,
    nonTextTags: DISCARD_WITH_CONTENT,
    transformTags: {
      a: (tagName, attribs) => ({
        tagName,
        attribs: { ...withUrl(attribs, 'href', baseUrl, true), rel: 'noopener noreferrer' },
      }),
      img: (tagName, attribs) => ({ tagName, attribs: withUrl(attribs, 'src', baseUrl, false) }),
      blockquote: (tagName, attribs) => ({ tagName, attribs: withUrl(attribs, 'cite', baseUrl, false) }),
      q: (tagName, attribs) => ({ tagName, attribs: withUrl(attribs, 'cite', baseUrl, false) }),
    },
    exclusiveFilter: (frame) => {
      if (frame.tag === 'img') {
        const src = frame.attribs.src;
        return (
          !src ||
          isTrackingPixel(frame.attribs) ||
          BLOCKED_IMAGE_URLS.some((pattern) => pattern.test(src)) ||
          refusedHost(src)
        );
      }
      // A link left with nothing to click (its image was a pixel or share button) is just noise.
      return frame.tag === 'a' && frame.text.trim() === '' && frame.mediaChildren.length === 0;
    },
  };
}

// sanitizeBody's output is sanitize-html's serialisation: every kept tag is written as
// `<name attr="value" ...>`, lowercase, with `&`, `<`, `>` and `"` escaped in text and attribute values.
// So every "<img" in it starts an image tag, its attributes end at the first ">", and its src is the
// text between `src="` and the next `"`: a scan finds the first image without parsing the body again.
const IMAGE_TAG = /<img\s[^>]*/g;
const SRC_ATTRIBUTE = /\ssrc="([^"]*)"/;

/**
 * The src of the first image with a src in HTML produced by {@link sanitizeBody} (only there: the scan
 * relies on its serialisation), entity-decoded, or null.
 */
export function firstImageSource(sanitizedHtml: string): string | null {
  if (!sanitizedHtml.includes('<img')) return null;
  for (const [tag] of sanitizedHtml.matchAll(IMAGE_TAG)) {
    const src = SRC_ATTRIBUTE.exec(tag)?.[1];
    if (src) return unescapeAttribute(src);
  }
  return null;
}

// The only references sanitize-html writes (its escapeHtml); &amp; last, so "&amp;lt;" stays "&lt;".
function unescapeAttribute(value: string): string {
  if (!value.includes('&')) return value;
  return value
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** True for the invisible 0x0 / 1x1 images used to track readers. */
export function isTrackingPixel(attribs: Record<string, string | undefined>): boolean {
  const width = Number.parseInt(attribs.width ?? '', 10);
  const height = Number.parseInt(attribs.height ?? '', 10);
  return width <= 1 && height <= 1;
}

// Rewrites one URL attribute in place (keeping attribute order), or drops it when it cannot be made safe.
function withUrl(
  attribs: sanitizeHtml.Attributes,
  name: string,
  baseUrl: string | null,
  allowMailto: boolean,
): sanitizeHtml.Attributes {
  const result: sanitizeHtml.Attributes = {};
  for (const [key, value] of Object.entries(attribs)) {
    if (key !== name) {
      result[key] = value;
      continue;
    }
    const resolved =
      allowMailto && /^\s*mailto:/i.test(value) ? value.trim() : toAbsoluteHttpUrl(value, baseUrl);
    if (resolved) result[key] = resolved;
  }
  return result;
}
