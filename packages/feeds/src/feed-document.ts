import { setImmediate as nextTurn } from 'node:timers/promises';
import { PLACEHOLDER_BASE } from '@newsroom/html';
import FeedParser from 'feedparser';
import { FeedError } from './feed-error';
import { saxStreamOf } from './feedparser-internals';

// Characters handed to the XML parser per step when the text is one string (decodeFeedChunks cuts its
// pieces to about the same size): small enough that the step's text and the items it completes die young.
const CHARS_PER_STEP = 1 << 16;
// The event loop (other jobs, BullMQ lock renewals) gets a turn after about this many characters: a
// news feed (~200 KB) is read in one go; a big feed does not block for its whole document.
const CHARS_PER_TURN = 1 << 20;

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
}

/**
 * Opens a decoded feed document for item-by-item reading with feedparser: `text` as one string, cut
 * into steps of `charsPerStep` characters, or as pieces already cut (decodeFeedChunks, or
 * decodeFeedStream while the body downloads), one step each.
 * The text goes to feedparser's sax stream directly: feedparser's own Writable side would encode the
 * string to a Buffer that sax then decodes back.
 */
export function openFeedDocument(
  text: string | Iterable<string> | AsyncIterable<string>,
  charsPerStep = CHARS_PER_STEP,
): FeedDocument {
  // feedurl is a placeholder so that we, not feedparser, choose the base of each relative URL (the
  // item link for content, the feed URL for item links); see PLACEHOLDER_BASE. addmeta: false, or
  // every item would carry a copy of the channel metadata. position: false (an option our feedparser
  // patch adds): sax does not count every character's line and column, which only its error messages
  // use, and its patched fast paths run (patches/README.md).
  const parser = new FeedParser({ feedurl: PLACEHOLDER_BASE, addmeta: false, position: false });
  const sax = saxStreamOf(parser);
  const steps = typeof text === 'string' ? stepsOf(text, charsPerStep) : text;
  let failure: unknown;
  let charsParsed = 0;
  let charsSinceTurn = 0;
  // feedparser reports "Not a feed" (and nothing else: sax errors are resumed) as an 'error' event.
  parser.on('error', (error: unknown) => {
    failure ??= error;
  });

  function* parsedItems(): Generator<FeedParser.Item> {
    for (let item = parser.read(); item !== null; item = parser.read()) yield item as FeedParser.Item;
  }

  function* writeStep(step: string): Generator<FeedParser.Item> {
    charsParsed += step.length;
    charsSinceTurn += step.length;
    sax.write(step);
    yield* parsedItems();
  }

  return {
    meta: parser.meta,
    async *items() {
      try {
        if (isAsyncIterable(steps)) {
          // A text still arriving (the preview reads the body as it downloads): each step awaits its piece.
          for await (const step of steps) yield* writeStep(step);
        } else {
          for (const step of steps) {
            if (charsSinceTurn >= CHARS_PER_TURN) {
              await nextTurn();
              charsSinceTurn = 0;
            }
            yield* writeStep(step);
          }
        }
        sax.end();
        yield* parsedItems();
      } catch (error) {
        failure ??= error;
      }
      if (failure !== undefined) {
        // feedparser is lenient (non-strict sax, errors resumed), so a failure means this is not a feed.
        throw new FeedError('NOT_A_FEED', 'The document at this address is not an RSS, Atom or JSON feed.', {
          cause: failure,
        });
      }
    },
    hasCompleteHeader: () => Boolean(parser.meta['#type'] && parser.meta.title && parser.meta.link),
    get charsParsed() {
      return charsParsed;
    },
  };
}

function isAsyncIterable(value: object): value is AsyncIterable<string> {
  return Symbol.asyncIterator in value;
}

function* stepsOf(text: string, charsPerStep: number): Generator<string> {
  for (let start = 0; start < text.length; start += charsPerStep)
    yield text.slice(start, start + charsPerStep);
}
