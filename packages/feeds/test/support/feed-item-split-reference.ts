// splitFeedItems as it was written first, on a latin1 string with regular expressions: the reference the
// byte-searching one (src/feed-item-split.ts) is checked against (feed-item-split.test.ts).

import { collapseWhitespace } from '@newsroom/html';
import type { FeedItemSplit } from '../../src/feed-item-split';

// An RSS <item> or Atom <entry> start tag (not <items>, <itemCount>, <entryPoint>...), and its end tag.
const OPENERS = [{ open: /<(item|entry)[\s>]/g, close: (name: string) => `</${name}>` }] as const;
const WHITESPACE = /^[\s]*$/;
// A plainly stated identity: exactly one <guid> (RSS) or <id> (Atom) with text free of markup,
// entities and CDATA. Anything else (or several) gives no guid, and the item is parsed.
const GUID = /<guid(?:\s[^>]*)?>([^<&]*)<\/guid>/g;
const ATOM_ID = /<id>([^<&]*)<\/id>/g;

/**
 * Cuts `body` at its `<item>` / `<entry>` elements, or undefined when that cannot be done safely: no
 * items, a charset that is not ASCII-compatible (UTF-16/32 BOM or NUL bytes), anything but whitespace
 * between items, an item start inside another item, or items of both kinds. The cut is by byte offsets;
 * the pieces joined again are the body without the whitespace between items.
 */
export function splitFeedItemsByRegex(body: Buffer): FeedItemSplit | undefined {
  // latin1 maps bytes one to one, so string offsets are byte offsets and ASCII markers are found as they are.
  const text = body.toString('latin1');
  if (text.includes('\u0000') || /^(\xfe\xff|\xff\xfe)/.test(text)) return undefined;
  const { open, close } = OPENERS[0];
  open.lastIndex = 0;
  const first = open.exec(text);
  if (!first) return undefined;
  const name = first[1] as string;
  const closing = close(name);
  const items: FeedItemSplit['items'] = [];
  let start = first.index;
  let end = 0;
  for (;;) {
    const closeAt = text.indexOf(closing, start);
    if (closeAt === -1) return undefined;
    end = closeAt + closing.length;
    const inner = text.slice(start + 1, closeAt);
    // A second start tag inside means the cut is wrong (e.g. a literal tag in CDATA): give up.
    if (new RegExp(`<${name}[\\s>]`).test(inner)) return undefined;
    items.push({ bytes: body.subarray(start, end), guid: plainGuid(inner, name) });
    open.lastIndex = end;
    const next = open.exec(text);
    if (!next) break;
    if (next[1] !== name || !WHITESPACE.test(text.slice(end, next.index))) return undefined;
    start = next.index;
  }
  return { head: body.subarray(0, first.index), items, tail: body.subarray(end) };
}

function plainGuid(inner: string, name: string): string | undefined {
  const pattern = name === 'entry' ? ATOM_ID : GUID;
  const matches = [...inner.matchAll(pattern)];
  if (matches.length !== 1) return undefined;
  const guid = collapseWhitespace(matches[0]?.[1] ?? '');
  // Only ASCII: a latin1 reading of UTF-8 bytes would not match the stored text otherwise.
  return guid && /^[\x21-\x7e ]+$/.test(guid) ? guid : undefined;
}
