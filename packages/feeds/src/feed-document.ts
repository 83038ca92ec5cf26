import { setImmediate as nextTurn } from 'node:timers/promises';
import FeedParser from 'feedparser';
import { FeedError } from './feed-error';
import { PLACEHOLDER_BASE } from './feed-url';

// Characters handed to the XML parser per step. A news feed (~200 KB) is one step, as before; a big feed
// gives the event loop (other jobs, BullMQ lock renewals) a turn after every ~1 MB instead of blocking
// for the whole document.
const CHARS_PER_STEP = 1 << 20;

/** The parts of sax's parser that feedparser keeps at `stream._parser` and that we tune. */
interface SaxParser {
  trackPosition: boolean;
}
interface SaxStream {
  write(text: string): unknown;
  end(): unknown;
  _parser?: SaxParser;
}

/** A feed document being read: its channel metadata (filled in as the parser meets it) and its items. */
export interface FeedDocument {
  /** feedparser's live metadata object: complete once `items()` has finished. */
  readonly meta: FeedParser.Meta;
  /**
   * The raw feedparser items in document order, each as soon as its closing tag has been parsed, so
   * the caller can normalise and drop them one by one. Rejects with FeedError NOT_A_FEED.
   */
  items(): AsyncGenerator<FeedParser.Item, void, undefined>;
  /**
   * True when the document is known to be a feed and its title and link have been read, so that
   * stopping now (a preview with enough items) returns the same title and link as reading to the end,
   * for feeds that state them before their items (as feeds do).
   */
  hasCompleteHeader(): boolean;
  /** How many characters of the text have been handed to the parser so far. */
  readonly charsParsed: number;
  /** Whether sax counts character positions for this document (see skipPositionTracking). */
  readonly countsPositions: boolean;
}

/**
 * Opens a decoded feed document for item-by-item reading with feedparser, `charsPerStep` characters
 * at a time. The text goes to feedparser's sax stream directly: feedparser's own Writable side would
 * encode the string to a Buffer that sax then decodes back.
 */
export function openFeedDocument(text: string, charsPerStep = CHARS_PER_STEP): FeedDocument {
  // feedurl is a placeholder so that we, not feedparser, choose the base of each relative URL (the
  // item link for content, the feed URL for item links); see PLACEHOLDER_BASE. addmeta: false, or
  // every item would carry a copy of the channel metadata.
  const parser = new FeedParser({ feedurl: PLACEHOLDER_BASE, addmeta: false });
  const sax = (parser as unknown as { stream: SaxStream }).stream;
  skipPositionTracking(sax, text);
  let failure: unknown;
  let charsParsed = 0;
  // feedparser reports "Not a feed" (and nothing else: sax errors are resumed) as an 'error' event.
  parser.on('error', (error: unknown) => {
    failure ??= error;
  });

  function* parsedItems(): Generator<FeedParser.Item> {
    for (let item = parser.read(); item !== null; item = parser.read()) yield item as FeedParser.Item;
  }

  return {
    meta: parser.meta,
    async *items() {
      try {
        while (charsParsed < text.length) {
          if (charsParsed > 0) await nextTurn();
          const step = text.slice(charsParsed, charsParsed + charsPerStep);
          charsParsed += step.length;
          sax.write(step);
          yield* parsedItems();
        }
        sax.end();
        yield* parsedItems();
      } catch (error) {
        failure ??= error;
      }
      if (failure !== undefined) {
        // feedparser is lenient (non-strict sax, errors resumed), so a failure means this is not a feed.
        throw new FeedError('NOT_A_FEED', 'The document at this address is not an RSS or Atom feed.', {
          cause: failure,
        });
      }
    },
    hasCompleteHeader: () => Boolean(parser.meta['#type'] && parser.meta.title && parser.meta.link),
    get charsParsed() {
      return charsParsed;
    },
    countsPositions: sax._parser?.trackPosition !== false,
  };
}

/**
 * sax counts the line, column and offset of every character, for error messages we never read; that
 * is a fifth of its time. The offset has one other use: in non-strict mode a '<' followed by whitespace
 * and a non-name character ("Profits < 5%") is kept as text with the whitespace restored from the
 * offsets. A document without '<' followed by whitespace cannot meet that case, so counting is switched
 * off only then, and the output is the same either way. (sax's buffer-length check also runs off the
 * offset; it cannot fire below feedparser's 16 Mi-character limit, above the fetcher's 15 MiB cap.)
 */
function skipPositionTracking(sax: SaxStream, text: string): void {
  if (sax._parser && typeof sax._parser.trackPosition === 'boolean' && !/<\s/.test(text)) {
    sax._parser.trackPosition = false;
  }
}
