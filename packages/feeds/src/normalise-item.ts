import { createHash } from 'node:crypto';
import {
  collapseWhitespace,
  htmlToText,
  type ImagePolicy,
  isPlaceholderUrl,
  sanitizeBody,
  titleToText,
  toAbsoluteHttpUrl,
  truncateText,
} from '@newsroom/html';
import type FeedParser from 'feedparser';
import { extractImages } from './extract-images';
import type { FeedItem } from './feed-item';
import { itemAuthors, itemStandfirst } from './item-metadata';

export const MAX_TITLE_LENGTH = 500;
export const MAX_CATEGORIES = 20;
const MAX_CATEGORY_LENGTH = 100;
// Title fallback taken from the body: long enough to recognise the item, short enough for a headline.
const BODY_TITLE_LENGTH = 100;
// Longer guids are hashed so the stored key stays bounded.
const MAX_GUID_LENGTH = 512;
/** The summary's text is cut here: more than an excerpt (300 characters, from the first 600 units) reads. */
export const SUMMARY_TEXT_LENGTH = 1_000;

/**
 * Turns one feedparser item into a {@link FeedItem}. `feedUrl` is the URL the feed was fetched from;
 * relative item links resolve against it and the item's body resolves against the item link.
 * Images on private or internal hosts are dropped unless `images` allows them.
 */
export function normaliseItem(item: FeedParser.Item, feedUrl: string, images: ImagePolicy = {}): FeedItem {
  const url = itemUrl(item, feedUrl);
  const body = sanitizeBody(item.description || item.summary, url ?? feedUrl, images);
  const publishedAt = validDate(item.pubdate) ?? validDate(item.date);
  const title = chooseTitle(item.title, body, url);
  const { image, thumbnail, imageMeta, thumbnailMeta } = extractImages(item, body, url ?? feedUrl, images);
  const summary = htmlToText(item.summary, SUMMARY_TEXT_LENGTH) || null;
  return {
    guid: detached(chooseGuid(item, url, title, publishedAt, body)),
    title,
    body,
    summary,
    url,
    thumbnail,
    image,
    thumbnailMeta,
    imageMeta,
    authors: itemAuthors(item, url ?? feedUrl),
    standfirst: itemStandfirst(summary, body),
    categories: normaliseCategories(categoryCandidates(item)),
    publishedAt,
  };
}

function itemUrl(item: FeedParser.Item, feedUrl: string): string | null {
  return (
    toAbsoluteHttpUrl(item.link, feedUrl) ??
    toAbsoluteHttpUrl(item.origlink, feedUrl) ??
    toAbsoluteHttpUrl(typeof item.permalink === 'string' ? item.permalink : null, feedUrl)
  );
}

/**
 * The guid normaliseItem would give the item, found without sanitising its body or looking for its
 * images (so an import can recognise items it already has before that work); undefined for the rare
 * item whose guid depends on its body (no guid, link or title): normalise it to know.
 */
export function guidBeforeNormalising(item: FeedParser.Item, feedUrl: string): string | undefined {
  const url = itemUrl(item, feedUrl);
  const rawTitle = titleToText(item.title);
  if (!rawTitle && !hasOwnGuid(item) && !url) return undefined;
  const title = rawTitle ? truncateText(rawTitle, MAX_TITLE_LENGTH) : (url ?? '');
  const publishedAt = validDate(item.pubdate) ?? validDate(item.date);
  return detached(chooseGuid(item, url, title, publishedAt, ''));
}

function hasOwnGuid(item: FeedParser.Item): boolean {
  const rawGuid = collapseWhitespace(typeof item.guid === 'string' ? item.guid : '');
  return rawGuid !== '' && !isPlaceholderUrl(rawGuid);
}

function chooseTitle(rawTitle: string | null | undefined, body: string, url: string | null): string {
  const title = titleToText(rawTitle);
  if (title) return truncateText(title, MAX_TITLE_LENGTH);
  const bodyText = htmlToText(body);
  if (bodyText) return truncateText(bodyText, BODY_TITLE_LENGTH);
  return url ?? '';
}

function chooseGuid(
  item: FeedParser.Item,
  url: string | null,
  title: string,
  publishedAt: Date | null,
  body: string,
): string {
  // feedparser falls back from guid/id to the link, which it resolved against the placeholder base.
  const rawGuid = collapseWhitespace(typeof item.guid === 'string' ? item.guid : '');
  const guid = rawGuid && !isPlaceholderUrl(rawGuid) ? rawGuid : url;
  if (guid) return guid.length > MAX_GUID_LENGTH ? hashGuid(guid) : guid;
  const date = publishedAt?.toISOString() ?? '';
  // Title + date is stable across edits of the body; the body only helps when both are missing.
  return hashGuid(title || date ? `${title}\n${date}` : body);
}

/**
 * A copy of `text` that shares no memory with the document. V8 keeps a substring of 13 characters or
 * more as a view into its parent string, so a guid sliced out of the parser's text would keep its whole
 * 64 KiB piece of the document alive for as long as the guid lives, and guids outlive their items
 * (the duplicate checks of the parser and the import keep them to the end of the feed). Prepending a
 * character makes a new string that slice() flattens into a fresh buffer of the guid's own size.
 */
function detached(text: string): string {
  return ` ${text}`.slice(1);
}

function hashGuid(value: string): string {
  return `sha256:${createHash('sha256').update(value).digest('hex')}`;
}

function validDate(value: unknown): Date | null {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value : null;
}

// feedparser splits dc:subject on spaces ("Plant Biology, Botany" -> "Plant", "Biology,", "Botany");
// put those pieces back together and split on commas and semicolons instead.
function categoryCandidates(item: FeedParser.Item): unknown[] {
  const candidates: unknown[] = Array.isArray(item.categories) ? [...item.categories] : [];
  const subjects = (Array.isArray(item['dc:subject']) ? item['dc:subject'] : [item['dc:subject']])
    .map((node: unknown) => (node as { '#'?: unknown } | undefined)?.['#'])
    .filter((text: unknown): text is string => typeof text === 'string');
  for (const subject of subjects) {
    for (const piece of subject.split(' ')) {
      const index = candidates.indexOf(piece.trim());
      if (index !== -1) candidates.splice(index, 1);
    }
    candidates.push(...subject.split(/[,;]/));
  }
  return candidates;
}

function normaliseCategories(raw: unknown[]): string[] {
  const seen = new Set<string>();
  const categories: string[] = [];
  for (const entry of raw) {
    if (typeof entry !== 'string') continue;
    const category = truncateText(collapseWhitespace(entry), MAX_CATEGORY_LENGTH);
    const key = category.toLocaleLowerCase();
    if (!category || seen.has(key)) continue;
    seen.add(key);
    categories.push(category);
    if (categories.length === MAX_CATEGORIES) break;
  }
  return categories;
}
