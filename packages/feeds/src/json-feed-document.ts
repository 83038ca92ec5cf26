import type FeedParser from 'feedparser';
import type { FeedDocument } from './feed-document';
import { FeedError } from './feed-error';

/**
 * JSON Feed 1.0 / 1.1 (https://jsonfeed.org/version/1.1) as a FeedDocument: each item is turned into
 * the shape feedparser gives an RSS/Atom item, so it goes through the same normaliseItem (title to
 * text, body sanitised, links resolved, pictures checked) as every other feed. The document is parsed
 * whole (JSON has no item boundaries a streaming parser could stop at); the fetch's size cap bounds it.
 */
export function openJsonFeedDocument(text: Iterable<string> | AsyncIterable<string>): FeedDocument {
  const meta = { '#type': '', title: '', link: '' } as unknown as FeedParser.Meta;
  let charsParsed = 0;
  let parsed = false;
  return {
    meta,
    async *items() {
      let whole = '';
      for await (const piece of text) whole += piece;
      charsParsed = whole.length;
      const feed = parseJsonFeed(whole);
      parsed = true;
      Object.assign(meta, {
        '#type': 'json',
        title: escapeHtml(stringOf(feed.title) ?? ''),
        link: stringOf(feed.home_page_url) ?? '',
      });
      const items = Array.isArray(feed.items) ? feed.items : [];
      for (const entry of items) {
        if (isObject(entry)) yield toFeedparserItem(entry);
      }
    },
    hasCompleteHeader: () => parsed,
    get charsParsed() {
      return charsParsed;
    },
  };
}

/**
 * Whether a body is JSON Feed rather than XML, by content first (its text starts with `{`, or with
 * `<`: XML), then by its media type (application/feed+json, application/json).
 */
export function looksLikeJsonFeed(firstText: string, contentType?: string | null): boolean {
  const start = firstText.trimStart()[0];
  if (start === '{') return true;
  if (start === '<') return false;
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/feed+json' || type === 'application/json';
}

function parseJsonFeed(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw notAFeed(error);
  }
  const version = isObject(parsed) ? stringOf(parsed.version) : undefined;
  if (
    !isObject(parsed) ||
    !version?.startsWith('https://jsonfeed.org/version/') ||
    !Array.isArray(parsed.items)
  ) {
    throw notAFeed(undefined);
  }
  return parsed;
}

const notAFeed = (cause: unknown) =>
  new FeedError('NOT_A_FEED', 'The document at this address is not an RSS, Atom or JSON feed.', {
    ...(cause === undefined ? {} : { cause }),
  });

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Plain text as HTML paragraphs (content_text, summary), so the sanitiser sees text, never markup. */
function textToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

function dateOf(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** One JSON Feed item in feedparser's item shape (the fields normaliseItem and extractImages read). */
function toFeedparserItem(entry: Record<string, unknown>): FeedParser.Item {
  const id =
    typeof entry.id === 'number' && Number.isFinite(entry.id) ? String(entry.id) : stringOf(entry.id);
  const contentHtml = stringOf(entry.content_html);
  const contentText = stringOf(entry.content_text);
  const summary = stringOf(entry.summary);
  const description = contentHtml ?? (contentText !== undefined ? textToHtml(contentText) : undefined);
  const tags = Array.isArray(entry.tags) ? entry.tags.filter((tag) => typeof tag === 'string') : [];
  const attachments = Array.isArray(entry.attachments) ? entry.attachments.filter(isObject) : [];
  const image = stringOf(entry.image) ?? stringOf(entry.banner_image);
  // JSON Feed 1.1 `authors` (1.0: `author`), read by itemAuthors (item-metadata.ts).
  const authors = (Array.isArray(entry.authors) ? entry.authors : [entry.author])
    .filter(isObject)
    .map((author) => ({ name: stringOf(author.name), url: stringOf(author.url) }));
  return {
    guid: id ?? null,
    link: stringOf(entry.url) ?? stringOf(entry.external_url) ?? null,
    // JSON Feed titles are plain text: escaped, so htmlToText gives back the same text (an RSS title's
    // escaped "&lt;b&gt;" ends the same way), never markup.
    title: escapeHtml(stringOf(entry.title) ?? ''),
    description: description ?? (summary !== undefined ? textToHtml(summary) : null),
    summary: summary !== undefined ? textToHtml(summary) : null,
    pubdate: dateOf(entry.date_published) ?? dateOf(entry.date_modified),
    date: dateOf(entry.date_modified) ?? dateOf(entry.date_published),
    categories: tags,
    enclosures: attachments.map((attachment) => ({
      url: stringOf(attachment.url),
      type: stringOf(attachment.mime_type),
    })),
    'newsroom:authors': authors,
    ...(image === undefined ? {} : { 'media:content': [{ '@': { url: image, medium: 'image' } }] }),
  } as unknown as FeedParser.Item;
}
