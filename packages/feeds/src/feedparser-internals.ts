import type FeedParser from 'feedparser';

// The two places where we reach into feedparser's and sax's private state. Each is checked by a test
// (feedparser-internals.test.ts) that fails if a dependency update renames what it relies on.

/** The parts of sax's parser that feedparser keeps at `stream._parser` and that we tune. */
interface SaxParser {
  trackPosition: boolean;
}
/** feedparser's sax stream (`parser.stream`), which we write the decoded text to. */
export interface SaxStream {
  write(text: string): unknown;
  end(): unknown;
  _parser?: SaxParser;
}
/** An element feedparser is still reading: its name, children by name, text. */
type OpenNode = Record<string, unknown>;

export function saxStreamOf(parser: FeedParser): SaxStream {
  return (parser as unknown as { stream: SaxStream }).stream;
}

/**
 * sax counts the line, column and offset of every character, for error messages we never read; that
 * is a fifth of its time. The offset has one other use: in non-strict mode a '<' followed by whitespace
 * and a non-name character ("Profits < 5%") is kept as text with the whitespace restored from the
 * offsets. So counting starts switched off and is switched on, for the rest of the document, before
 * the first step in which a '<' is followed by whitespace (the '<' may end the previous step). sax
 * restores `offset(non-name character) - offset('<') - 1` spaces, and both offsets are counted after
 * the switch (a '<' read while counting was off records the unchanged offset, which is the same as
 * counting it), so the output is the same as with counting on throughout. (sax's buffer-length check
 * also runs off the offset; it cannot fire below feedparser's 16 Mi-character limit, above the
 * fetcher's 15 MiB cap.)
 */
export function positionCounting(sax: SaxStream): { beforeStep(step: string): void } {
  const parser = sax._parser;
  if (!parser || typeof parser.trackPosition !== 'boolean' || !parser.trackPosition) {
    return { beforeStep: () => {} };
  }
  parser.trackPosition = false;
  let lastChar = '';
  return {
    beforeStep(step) {
      // Tested apart, not as lastChar + step: that concatenation would copy every piece.
      if (!parser.trackPosition && (/<\s/.test(step) || (lastChar === '<' && /^\s/.test(step)))) {
        parser.trackPosition = true;
      }
      lastChar = step.slice(-1);
    },
  };
}

const ITEM_NAME = /^(?:[^:]*:)?(?:item|entry)$/;

const isItemNode = (node: OpenNode) =>
  ITEM_NAME.test(String(node['#name'] ?? '')) || ITEM_NAME.test(String(node['#local'] ?? ''));

/**
 * feedparser emits each item when its closing tag is parsed, but also keeps the item's raw node (its
 * text, attributes and children) in its parent element (the channel) until the document ends, so a
 * 15 MiB feed held all of its raw items, ~40 MB of heap, whatever the caller did with the emitted
 * ones. This drops the item nodes kept by the elements still open outside any item (`parser.stack`,
 * innermost first). Only handleMeta reads those elements' children afterwards, and it skips `item`,
 * `entry` and `*:item` / `*:entry` (the names dropped here), so the output is the same.
 */
export function forgetEmittedItemNodes(parser: FeedParser): void {
  const stack = (parser as unknown as { stack?: unknown }).stack;
  if (!Array.isArray(stack)) return;
  // The outermost open elements come last; stop at the first item (its children are its own data).
  for (let depth = stack.length - 1; depth >= 0; depth--) {
    const node = stack[depth] as OpenNode;
    if (isItemNode(node)) return;
    for (const key of Object.keys(node)) {
      if (ITEM_NAME.test(key)) delete node[key];
    }
  }
}
