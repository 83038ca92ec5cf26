import { htmlToText, titleToText, toAbsoluteHttpUrl, truncateText } from '@newsroom/html';
import type FeedParser from 'feedparser';

// What a feed says about an item beyond its title and body (issue 32): its authors, a standfirst, and the
// alt text, caption, credit and size of its pictures. Read once per new item, in normaliseItem.

/** An author as a feed names one: display name and, when given, a profile URL. */
export interface FeedAuthor {
  name: string;
  url: string | null;
}

/** What a feed says about one picture (every field may be missing). */
export interface FeedImageMeta {
  alt: string | null;
  caption: string | null;
  credit: string | null;
  width: number | null;
  height: number | null;
}

export const MAX_AUTHORS = 20;
const MAX_AUTHOR_LENGTH = 200;
export const MAX_STANDFIRST_LENGTH = 500;
const MAX_META_TEXT = { alt: 1000, caption: 1000, credit: 300 } as const;
const MAX_DIMENSION = 100_000;

// feedparser keeps namespaced elements as raw nodes: { '@': attributes, '#': text, ...children }, or arrays.
type RawNode = { '@'?: Record<string, unknown>; '#'?: unknown } & Record<string, unknown>;

export function asNodes(value: unknown): RawNode[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((entry): entry is RawNode => typeof entry === 'object' && entry !== null);
}

function textOf(node: RawNode | undefined): string | undefined {
  const text = node?.['#'];
  return typeof text === 'string' ? text : undefined;
}

/** Markup stripped, entities decoded, whitespace collapsed, cut to `max` characters; null when empty. */
function plain(text: string | null | undefined, max: number): string | null {
  const value = titleToText(text);
  return value ? truncateText(value, max) : null;
}

/**
 * The item's authors in feed order, sanitised: JSON Feed `authors` (carried as `newsroom:authors`),
 * else every `dc:creator`, else Atom `author` (name and uri), else RSS `author` ("e-mail (Name)": the name
 * only; a bare e-mail address is not a byline). The same name twice is kept once; at most 20.
 */
export function itemAuthors(item: FeedParser.Item, baseUrl: string | null): FeedAuthor[] {
  const raw: { name: unknown; url?: unknown }[] = [];
  const jsonAuthors = (item as unknown as Record<string, unknown>)['newsroom:authors'];
  if (Array.isArray(jsonAuthors)) raw.push(...(jsonAuthors as { name: unknown; url?: unknown }[]));
  if (raw.length === 0) raw.push(...asNodes(item['dc:creator']).map((node) => ({ name: textOf(node) })));
  if (raw.length === 0) {
    raw.push(
      ...asNodes(item['atom:author']).map((node) => ({
        name: textOf(asNodes(node.name)[0]),
        url: textOf(asNodes(node.uri)[0]),
      })),
    );
  }
  if (raw.length === 0 && typeof item.author === 'string') raw.push({ name: rssAuthorName(item.author) });
  const seen = new Set<string>();
  const authors: FeedAuthor[] = [];
  for (const entry of raw) {
    // One dc:creator may list several people: "Ann Lee and Bo Chen", "Ann Lee; Bo Chen" (not commas:
    // "Lee, Ann" and "Ann Lee, Reuters" are one byline each).
    const names = typeof entry.name === 'string' ? entry.name.split(/\s*(?:;|\s\band\b\s)\s*/) : [];
    for (const piece of names) {
      const name = plain(piece, MAX_AUTHOR_LENGTH);
      if (!name || name.includes('@') || seen.has(name.toLocaleLowerCase())) continue;
      seen.add(name.toLocaleLowerCase());
      const url =
        names.length === 1 && typeof entry.url === 'string' ? toAbsoluteHttpUrl(entry.url, baseUrl) : null;
      authors.push({ name, url });
      if (authors.length === MAX_AUTHORS) return authors;
    }
  }
  return authors;
}

/** RSS 2.0 `<author>` is an e-mail address, often followed by the name in parentheses. */
function rssAuthorName(author: string): string {
  const inParentheses = /\(([^)]+)\)\s*$/.exec(author);
  return inParentheses?.[1] ?? author;
}

/**
 * The standfirst: the item's summary when it is not just the start of its body (RSS with content:encoded,
 * Atom summary beside content, JSON Feed summary), cut to 500 characters; else null.
 */
export function itemStandfirst(summaryText: string | null, body: string): string | null {
  if (!summaryText) return null;
  const summary = summaryText.replace(/\s*(?:\[(?:…|\.\.\.)\]|…|\.\.\.)\s*$/, '').trim();
  if (summary === '') return null;
  const probe = summary.slice(0, 80);
  const bodyStart = htmlToText(body, probe.length + 200);
  if (bodyStart.startsWith(probe) || bodyStart.includes(probe)) return null;
  return truncateText(summary, MAX_STANDFIRST_LENGTH);
}

/** Metadata of a media:content or media:thumbnail node: its size, and its own or the item's credit and description. */
export function mediaNodeMeta(node: RawNode | undefined, item: FeedParser.Item): FeedImageMeta {
  const credit = textOf(asNodes(node?.['media:credit'])[0]) ?? textOf(asNodes(item['media:credit'])[0]);
  const description =
    textOf(asNodes(node?.['media:description'])[0]) ??
    textOf(asNodes(item['media:description'])[0]) ??
    textOf(asNodes(node?.['media:title'])[0]);
  const caption = plain(description, MAX_META_TEXT.caption);
  return {
    // A description says what the picture shows: the best alt text a feed offers.
    alt: caption && truncateText(caption, MAX_META_TEXT.alt),
    caption,
    credit: plain(credit, MAX_META_TEXT.credit),
    width: dimension(node?.['@']?.width),
    height: dimension(node?.['@']?.height),
  };
}

function dimension(value: unknown): number | null {
  const number = typeof value === 'string' ? Number.parseInt(value, 10) : Number.NaN;
  return Number.isInteger(number) && number >= 1 && number <= MAX_DIMENSION ? number : null;
}

// As firstImageSource (sanitize-body.ts): the sanitiser's serialisation is regular, so a scan finds tags.
const IMAGE_TAG = /<img\s[^>]*>/g;

/**
 * Metadata of the image `src` in a sanitised body: its alt, width and height attributes, and the text of the
 * figcaption of the figure holding it. Null when the body has no such image.
 */
export function bodyImageMeta(sanitizedBody: string, src: string): FeedImageMeta | null {
  if (!sanitizedBody.includes('<img')) return null;
  for (const match of sanitizedBody.matchAll(IMAGE_TAG)) {
    const tag = match[0];
    if (unescapeAttribute(attribute(tag, 'src') ?? '') !== src) continue;
    const rest = sanitizedBody.slice(match.index + tag.length);
    const figureEnd = rest.indexOf('</figure>');
    const captionAt = rest.indexOf('<figcaption>');
    const before = sanitizedBody.slice(0, match.index);
    const inFigure = figureEnd !== -1 && before.lastIndexOf('<figure') > before.lastIndexOf('</figure>');
    const caption =
      inFigure && captionAt !== -1 && captionAt < figureEnd
        ? plain(
            rest.slice(captionAt + '<figcaption>'.length, rest.indexOf('</figcaption>', captionAt)),
            MAX_META_TEXT.caption,
          )
        : null;
    const alt = attribute(tag, 'alt');
    return {
      alt: alt === undefined ? null : plain(unescapeAttribute(alt), MAX_META_TEXT.alt),
      caption,
      credit: null,
      width: dimension(attribute(tag, 'width')),
      height: dimension(attribute(tag, 'height')),
    };
  }
  return null;
}

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}

function unescapeAttribute(value: string): string {
  if (!value.includes('&')) return value;
  return value
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** Whether nothing at all is known. */
export function isEmptyMeta(meta: FeedImageMeta | null): boolean {
  return meta === null || Object.values(meta).every((value) => value === null);
}
