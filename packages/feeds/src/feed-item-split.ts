import { collapseWhitespace } from '@newsroom/html';

/**
 * A feed body cut at its items without parsing it: the bytes before the first item, each item's bytes
 * with the guid it plainly states, and the bytes after the last one. Lets an import leave out items it
 * already has before the XML parser sees them (see withItemsLeftOut).
 */
export interface FeedItemSplit {
  head: Buffer;
  items: { bytes: Buffer; guid: string | undefined }[];
  tail: Buffer;
}

// A plainly stated identity: exactly one <guid> (RSS) or <id> (Atom) with text free of markup,
// entities and CDATA. Anything else (or several) gives no guid, and the item is parsed.
const GUID = { needle: '<guid', all: /<guid(?:\s[^>]*)?>([^<&]*)<\/guid>/g };
const ATOM_ID = { needle: '<id>', all: /<id>([^<&]*)<\/id>/g };

// What JavaScript's \s matches among single bytes read as latin1: tab, LF, VT, FF, CR, space, NBSP.
// Searched for as bytes: Buffer needles, made once.
const bytesOf = new Map(
  ['<item', '<entry', '</item>', '</entry>', '<guid', '<id>'].map((text) => [
    text,
    Buffer.from(text, 'latin1'),
  ]),
);
const needle = (text: string) => bytesOf.get(text) ?? Buffer.from(text, 'latin1');

const isSpaceByte = (byte: number | undefined) =>
  byte !== undefined && ((byte >= 0x09 && byte <= 0x0d) || byte === 0x20 || byte === 0xa0);

/**
 * Where the next `<name` start tag (followed by whitespace or `>`, so not `<items>` or `<itemCount>`)
 * begins at or after `from`, or -1. A byte search (memmem), no string of the body is made.
 */
function nextStartTag(body: Buffer, name: string, from: number): number {
  const tag = needle(`<${name}`);
  for (let at = body.indexOf(tag, from); at !== -1; at = body.indexOf(tag, at + 1)) {
    const next = body[at + tag.length];
    if (next === 0x3e /* > */ || isSpaceByte(next)) return at;
  }
  return -1;
}

/**
 * Cuts `body` at its `<item>` / `<entry>` elements, or undefined when that cannot be done safely: no
 * items, a charset that is not ASCII-compatible (UTF-16/32 BOM or NUL bytes), anything but whitespace
 * between items, an item start inside another item, or items of both kinds. The cut is by byte offsets;
 * the pieces joined again are the body without the whitespace between items.
 * Works on the bytes (an hourly fetch of a news feed is ~160 KB, cut on every changed fetch): the body is
 * searched with Buffer.indexOf and only each item's guid is read as text.
 */
export function splitFeedItems(body: Buffer): FeedItemSplit | undefined {
  if (body.indexOf(0) !== -1) return undefined;
  if ((body[0] === 0xfe && body[1] === 0xff) || (body[0] === 0xff && body[1] === 0xfe)) return undefined;
  const firstItem = nextStartTag(body, 'item', 0);
  const firstEntry = nextStartTag(body, 'entry', 0);
  if (firstItem === -1 && firstEntry === -1) return undefined;
  const isItem = firstEntry === -1 || (firstItem !== -1 && firstItem < firstEntry);
  const name = isItem ? 'item' : 'entry';
  const other = isItem ? 'entry' : 'item';
  const closing = needle(`</${name}>`);
  const items: FeedItemSplit['items'] = [];
  let start = isItem ? firstItem : firstEntry;
  // The next start tag of the other kind at or after `otherFrom` (-1: none), searched again only once passed.
  let otherAt = isItem ? firstEntry : firstItem;
  let end = 0;
  for (;;) {
    const closeAt = body.indexOf(closing, start);
    if (closeAt === -1) return undefined;
    end = closeAt + closing.length;
    const nextSame = nextStartTag(body, name, start + 1);
    // A second start tag inside means the cut is wrong (e.g. a literal tag in CDATA): give up.
    if (nextSame !== -1 && nextSame < closeAt) return undefined;
    items.push({ bytes: body.subarray(start, end), guid: plainGuid(body, start + 1, closeAt, name) });
    if (otherAt !== -1 && otherAt < end) otherAt = nextStartTag(body, other, end);
    if (nextSame === -1 && otherAt === -1) break;
    // Items of both kinds, or anything but whitespace before the next item: give up.
    if (nextSame === -1 || (otherAt !== -1 && otherAt < nextSame)) return undefined;
    for (let at = end; at < nextSame; at++) if (!isSpaceByte(body[at])) return undefined;
    start = nextSame;
  }
  return { head: body.subarray(0, isItem ? firstItem : firstEntry), items, tail: body.subarray(end) };
}

/** The guid plainly stated in body[from, to) (an item without its `<` and closing tag), or undefined. */
function plainGuid(body: Buffer, from: number, to: number, name: string): string | undefined {
  const pattern = name === 'entry' ? ATOM_ID : GUID;
  // Every match begins with the needle, so with one occurrence only a match starting there counts.
  const opening = needle(pattern.needle);
  const first = body.indexOf(opening, from);
  if (first === -1 || first >= to) return undefined;
  const second = body.indexOf(opening, first + 1);
  const found =
    second === -1 || second >= to
      ? matchAt(body, first, to, pattern.needle)
      : onlyMatch(body.toString('latin1', first, to), pattern.all);
  if (found === undefined) return undefined;
  const guid = collapseWhitespace(found);
  // Only ASCII: a latin1 reading of UTF-8 bytes would not match the stored text otherwise.
  return guid && /^[\x21-\x7e ]+$/.test(guid) ? guid : undefined;
}

/**
 * The pattern's text matched at `at` on the bytes, without making a string of the item: the start tag runs
 * to the first `>` (after the name, nothing or whitespace then anything but `>`), the text to the next `<`,
 * which must open the end tag; the text has no `&`.
 */
function matchAt(body: Buffer, at: number, to: number, needle: string): string | undefined {
  const afterName = at + needle.length;
  let gt = afterName - 1;
  if (!needle.endsWith('>')) {
    gt = body.indexOf(0x3e, afterName);
    if (gt === -1 || gt >= to || (gt > afterName && !isSpaceByte(body[afterName]))) return undefined;
  }
  const lt = body.indexOf(0x3c, gt + 1);
  const endTag = `</${needle.slice(1).replace('>', '')}>`;
  if (lt === -1 || lt + endTag.length > to) return undefined;
  if (body.toString('latin1', lt, lt + endTag.length) !== endTag) return undefined;
  const text = body.toString('latin1', gt + 1, lt);
  return text.includes('&') ? undefined : text;
}

/** The text of the only match of `pattern` in `text`, or undefined when there are none or several. */
function onlyMatch(text: string, pattern: RegExp): string | undefined {
  const matches = [...text.matchAll(pattern)];
  return matches.length === 1 ? matches[0]?.[1] : undefined;
}

/** The body again without the items `leaveOut` picks (their bytes cut out), and how many guids that left out. */
export function withItemsLeftOut(
  split: FeedItemSplit,
  leaveOut: (item: FeedItemSplit['items'][number]) => boolean,
): { body: Buffer; leftOut: number } {
  const kept: Buffer[] = [];
  const leftOutGuids = new Set<string | undefined>();
  for (const item of split.items) {
    if (leaveOut(item)) leftOutGuids.add(item.guid);
    else kept.push(item.bytes);
  }
  // Counted by guid: an item repeated in the feed counts once, as the parser counts it.
  return { body: Buffer.concat([split.head, ...kept, split.tail]), leftOut: leftOutGuids.size };
}
