import { htmlToText, toAbsoluteHttpUrl, truncateText } from '@newsroom/html';
import { type FeedDocument, openFeedDocument } from './feed-document';
import type { FeedItem } from './feed-item';
import { looksLikeJsonFeed, openJsonFeedDocument } from './json-feed-document';
import { MAX_TITLE_LENGTH, normaliseItem } from './normalise-item';
import { openFeedBody } from './open-feed-body';

/** Where the body came from; `url` is needed to resolve relative links. */
export interface ParseFeedOptions {
  /** The feed's (final) URL. */
  url: string;
  /** The response Content-Type, consulted for the charset when the body itself does not say. */
  contentType?: string | null;
  /** Keep only the first N items (in feed order, after removing duplicate guids). */
  maxItems?: number;
  /**
   * Keep images (thumbnail, image, body <img>) on private, loopback and internal hosts. Default false:
   * they are dropped, as the fetcher refuses such addresses. Follows FEED_ALLOW_PRIVATE_ADDRESSES.
   */
  allowPrivateImages?: boolean;
}

/** A parsed feed: its title and link, and its items in feed order. */
export interface ParsedFeed {
  title: string;
  /** The site's home page as the feed declares it (absolute http(s)), or null. */
  link: string | null;
  items: FeedItem[];
}

/** A feed being read (streamFeed): its items as they are parsed, then its title and link. */
export interface FeedStream {
  /**
   * The normalised items in feed order, each as soon as the parser has completed it; items whose
   * guid was seen earlier in the document are dropped. Rejects with FeedError NOT_A_FEED. Read once.
   */
  items: AsyncGenerator<FeedItem, void, undefined>;
  /** The feed's title and link: final once `items` has finished. */
  header(): Pick<ParsedFeed, 'title' | 'link'>;
}

/**
 * Decodes and parses an RSS 0.9x / 1.0 (RDF) / 2.0, Atom or JSON Feed 1.x document and normalises its items.
 * Items with a guid already seen earlier in the same document are dropped. Rejects with FeedError
 * NOT_A_FEED when the document is not a feed.
 */
export async function parseFeed(body: Buffer, options: ParseFeedOptions): Promise<ParsedFeed> {
  const feed = streamFeed(body, options);
  const items: FeedItem[] = [];
  for await (const item of feed.items) items.push(item);
  return { ...feed.header(), items };
}

/**
 * parseFeed item by item: the body is decoded a piece at a time and each item is normalised as the
 * parser completes it and handed over, so a caller that saves items as they come (the worker's
 * import) never holds the whole document's text or all of its items. With `maxItems`, reading stops
 * once that many items are handed over and the feed's title and link are known; items past
 * `maxItems` are never normalised.
 */
export function streamFeed(body: Buffer, options: ParseFeedOptions): FeedStream {
  return streamFeedDocument(openFeedBody(body, options.contentType), options);
}

/** streamFeed of a text still arriving, decoded piece by piece (decodeFeedStream): the preview. */
export function streamFeedPieces(text: AsyncIterable<string>, options: ParseFeedOptions): FeedStream {
  return streamFeedDocument(openSniffedDocument(text, options.contentType), options);
}

/** A FeedDocument of a text still arriving: XML or JSON Feed, chosen once its first piece is read. */
function openSniffedDocument(
  pieces: AsyncIterable<string>,
  contentType: string | null | undefined,
): FeedDocument {
  let chosen: FeedDocument | undefined;
  const pending = {} as FeedDocument['meta'];
  return {
    get meta() {
      return chosen?.meta ?? pending;
    },
    async *items() {
      const iterator = pieces[Symbol.asyncIterator]();
      const first = await iterator.next();
      const text = (async function* () {
        if (!first.done) yield first.value;
        yield* { [Symbol.asyncIterator]: () => iterator };
      })();
      chosen = looksLikeJsonFeed(first.done ? '' : first.value, contentType)
        ? openJsonFeedDocument(text)
        : openFeedDocument(text);
      yield* chosen.items();
    },
    hasCompleteHeader: () => chosen?.hasCompleteHeader() ?? false,
    get charsParsed() {
      return chosen?.charsParsed ?? 0;
    },
  };
}

function streamFeedDocument(document: FeedDocument, options: ParseFeedOptions): FeedStream {
  const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
  const images = { allowPrivateImages: options.allowPrivateImages ?? false };
  async function* items(): AsyncGenerator<FeedItem, void, undefined> {
    const seenGuids = new Set<string>();
    for await (const rawItem of document.items()) {
      if (seenGuids.size >= maxItems) {
        if (document.hasCompleteHeader()) break;
        continue;
      }
      const item = normaliseItem(rawItem, options.url, images);
      if (seenGuids.has(item.guid)) continue;
      seenGuids.add(item.guid);
      yield item;
    }
  }
  return {
    items: items(),
    header: () => ({
      title: truncateText(htmlToText(document.meta.title), MAX_TITLE_LENGTH),
      link: toAbsoluteHttpUrl(document.meta.link, options.url),
    }),
  };
}
