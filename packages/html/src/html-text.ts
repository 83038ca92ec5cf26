import { visibleTextParser } from './visible-text';

// Their boundaries separate words: "<p>a</p><p>b</p>" must read "a b", not "ab".
const BLOCK_TAGS: ReadonlySet<string> = new Set(
  (
    'p div br hr li ul ol dd dt h1 h2 h3 h4 h5 h6 blockquote figure figcaption table tr td th pre ' +
    'section article header footer'
  ).split(' '),
);

/**
 * Converts an HTML fragment to plain text: tags dropped, entities decoded, whitespace collapsed. With
 * `maxLength`, only the start of the text, at most that many UTF-16 units (never half a character), and the
 * parse stops once it has that much: an excerpt needs the first few hundred characters of a body, not all of it.
 */
export function htmlToText(html: string | null | undefined, maxLength = Number.POSITIVE_INFINITY): string {
  if (!html) return '';
  // Without markup or character references there is nothing to parse (most feed titles).
  if (!html.includes('<') && !html.includes('&')) return startOf(collapseWhitespace(html), maxLength);
  const parts: string[] = [];
  let textLength = 0;
  const parser = visibleTextParser({
    open(name) {
      if (BLOCK_TAGS.has(name)) parts.push(' ');
    },
    close(name) {
      if (BLOCK_TAGS.has(name)) parts.push(' ');
    },
    text(text) {
      parts.push(text);
      textLength += text.length;
    },
  });
  if (maxLength === Number.POSITIVE_INFINITY) {
    parser.write(html);
    parser.end();
    return collapseWhitespace(parts.join(''));
  }
  // In pieces, until the text collected, once collapsed, is long enough (collapsing can shrink it a lot).
  let enough = maxLength;
  for (let at = 0; at < html.length; at += textPiece) {
    parser.write(html.slice(at, at + textPiece));
    if (textLength <= enough) continue;
    const text = collapseWhitespace(parts.join(''));
    if (text.length > maxLength) return startOf(text, maxLength);
    enough = textLength * 2;
  }
  parser.end();
  return startOf(collapseWhitespace(parts.join('')), maxLength);
}

/**
 * A feed title as text. RSS 2.0 defines it as plain text, yet real feeds put markup in it (`$1,200 1bd
 * 560ft<sup>2</sup>`) or escape it twice (`Fish &amp;amp; Chips`). Read as the Universal Feed Parser does:
 * HTML only when it has a closing tag or a character reference, else the text as it is, so a title such as
 * `A <b> tag & "quotes"` or `Police find <script>` keeps every character.
 */
export function titleToText(title: string | null | undefined): string {
  if (!title) return '';
  return looksLikeHtml.test(title) ? htmlToText(title) : collapseWhitespace(title);
}

const looksLikeHtml = /<\/[A-Za-z][A-Za-z0-9-]*\s*>|&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);/;

/** How much HTML htmlToText parses between checks of the text's length. */
const textPiece = 2048;

/** The first `maxLength` UTF-16 units of `text`, without a lone high surrogate at the end. */
function startOf(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const code = text.charCodeAt(maxLength - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? maxLength - 1 : maxLength).trimEnd();
}

/** Collapses runs of whitespace (including non-breaking spaces) to one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Shortens text to at most `max` characters, cutting at a word boundary when one is reasonably close
 * and marking the cut with an ellipsis.
 */
export function truncateText(text: string, max: number): string {
  // At most 2 UTF-16 units per character: the first 2 x max units hold the first max characters, so a long
  // text (an excerpt's body) is not split into an array of all its characters.
  const chars = Array.from(text.slice(0, 2 * max));
  if (chars.length <= max && text.length <= 2 * max) return text;
  const cut = chars.slice(0, max - 1).join('');
  const lastSpace = cut.lastIndexOf(' ');
  const base = lastSpace > cut.length / 2 ? cut.slice(0, lastSpace) : cut;
  return `${base.trimEnd()}…`;
}
