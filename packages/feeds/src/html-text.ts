import { Parser } from 'htmlparser2';

// Text inside these never reaches a reader.
const HIDDEN_TAGS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
]);
// Their boundaries separate words: "<p>a</p><p>b</p>" must read "a b", not "ab".
const BLOCK_TAGS: ReadonlySet<string> = new Set(
  (
    'p div br hr li ul ol dd dt h1 h2 h3 h4 h5 h6 blockquote figure figcaption table tr td th pre ' +
    'section article header footer'
  ).split(' '),
);

/** Converts an HTML fragment to plain text: tags dropped, entities decoded, whitespace collapsed. */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  // Without markup or character references there is nothing to parse (most feed titles).
  if (!html.includes('<') && !html.includes('&')) return collapseWhitespace(html);
  const parts: string[] = [];
  let hiddenDepth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (HIDDEN_TAGS.has(name)) hiddenDepth++;
        if (BLOCK_TAGS.has(name)) parts.push(' ');
      },
      onclosetag(name) {
        if (HIDDEN_TAGS.has(name)) hiddenDepth = Math.max(0, hiddenDepth - 1);
        if (BLOCK_TAGS.has(name)) parts.push(' ');
      },
      ontext(text) {
        if (hiddenDepth === 0) parts.push(text);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return collapseWhitespace(parts.join(''));
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
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max - 1).join('');
  const lastSpace = cut.lastIndexOf(' ');
  const base = lastSpace > cut.length / 2 ? cut.slice(0, lastSpace) : cut;
  return `${base.trimEnd()}…`;
}
