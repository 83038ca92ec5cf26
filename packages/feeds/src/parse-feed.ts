import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import FeedParser from 'feedparser';
import { decodeFeedBody } from './decode-feed-body';
import { FeedError } from './feed-error';
import type { FeedItem } from './feed-item';
import { PLACEHOLDER_BASE, toAbsoluteHttpUrl } from './feed-url';
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
 */
export async function parseFeed(body: Buffer, options: ParseFeedOptions): Promise<ParsedFeed> {
  const { text } = decodeFeedBody(body, options.contentType);
  const { meta, rawItems } = await runFeedParser(text);

  const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
  const seenGuids = new Set<string>();
  const items: FeedItem[] = [];
  for (const rawItem of rawItems) {
    if (items.length >= maxItems) break;
    const item = normaliseItem(rawItem, options.url);
    if (seenGuids.has(item.guid)) continue;
    seenGuids.add(item.guid);
    items.push(item);
  }

  return {
    title: truncateText(htmlToText(meta.title), MAX_TITLE_LENGTH),
    link: toAbsoluteHttpUrl(meta.link, options.url),
    items,
  };
}

async function runFeedParser(text: string): Promise<{ meta: FeedParser.Meta; rawItems: FeedParser.Item[] }> {
  // feedurl is a placeholder so that we, not feedparser, choose the base of each relative URL (the
  // item link for content, the feed URL for item links); see PLACEHOLDER_BASE. addmeta: false, or
  // every item would carry a copy of the channel metadata.
  const parser = new FeedParser({ feedurl: PLACEHOLDER_BASE, addmeta: false });
  const rawItems: FeedParser.Item[] = [];
  const collector = new Writable({
    objectMode: true,
    write(item: FeedParser.Item, _encoding, done) {
      rawItems.push(item);
      done();
    },
  });
  try {
    await pipeline(Readable.from([Buffer.from(text, 'utf8')]), parser, collector);
  } catch (error) {
    // feedparser is lenient (non-strict sax, errors resumed), so a failure means this is not a feed.
    throw new FeedError('NOT_A_FEED', 'The document at this address is not an RSS or Atom feed.', {
      cause: error,
    });
  }
  return { meta: parser.meta, rawItems };
}
