import { decodeFeedBody } from './decode-feed-body';
import { openFeedDocument } from './feed-document';
import type { FeedItem } from './feed-item';
import { toAbsoluteHttpUrl } from './feed-url';
import { htmlToText, truncateText } from './html-text';
import { MAX_TITLE_LENGTH, normaliseItem } from './normalise-item';

/** Where the body came from; `url` is needed to resolve relative links. */
export interface ParseFeedOptions {
  /** The feed's (final) URL. */
  url: string;
  /** The response Content-Type, consulted for the charset when the body itself does not say. */
  contentType?: string | null;
  /** Keep only the first N items (in feed order, after removing duplicate guids). */
  maxItems?: number;
}

/** A parsed feed: its title and link, and its items in feed order. */
export interface ParsedFeed {
  title: string;
  /** The site's home page as the feed declares it (absolute http(s)), or null. */
  link: string | null;
  items: FeedItem[];
}

/**
 * Decodes and parses an RSS 0.9x / 1.0 (RDF) / 2.0 or Atom document and normalises its items.
 * Items with a guid already seen earlier in the same document are dropped. Rejects with FeedError
 * NOT_A_FEED when the document is not a feed.
 *
 * Items are normalised as the parser completes them, so a big feed never holds all of its raw items
 * at once. With `maxItems`, reading stops once that many items are kept and the feed's title and
 * link are known; items past `maxItems` are never normalised.
 */
export async function parseFeed(body: Buffer, options: ParseFeedOptions): Promise<ParsedFeed> {
  const document = openFeedDocument(decodeFeedBody(body, options.contentType).text);
  const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
  const seenGuids = new Set<string>();
  const items: FeedItem[] = [];
  for await (const rawItem of document.items()) {
    if (items.length >= maxItems) {
      if (document.hasCompleteHeader()) break;
      continue;
    }
    const item = normaliseItem(rawItem, options.url);
    if (seenGuids.has(item.guid)) continue;
    seenGuids.add(item.guid);
    items.push(item);
  }
  return {
    title: truncateText(htmlToText(document.meta.title), MAX_TITLE_LENGTH),
    link: toAbsoluteHttpUrl(document.meta.link, options.url),
    items,
  };
}
