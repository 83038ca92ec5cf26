import { Parser } from 'htmlparser2';

/** At most this many characters (code points), ellipsis included. */
export const maxExcerptLength = 300;

// Text inside these never reaches a reader.
const hiddenTags: ReadonlySet<string> = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
]);

/**
 * An article's excerpt from plain text: whitespace collapsed, at most 300 characters, cut at a word boundary
 * (when one is in the second half) and marked with an ellipsis.
 */
export function excerptFromText(text: string): string {
  const collapsed = collapsedStart(text);
  // At most 2 UTF-16 units per character: the first 2 x 300 units hold the first 300 characters, so a
  // long body is not split into an array of all its characters.
  const chars = Array.from(collapsed.slice(0, 2 * maxExcerptLength));
  if (chars.length <= maxExcerptLength && collapsed.length <= 2 * maxExcerptLength) return collapsed;
  const cut = chars.slice(0, maxExcerptLength - 1).join('');
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > cut.length / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

/**
 * The text with whitespace collapsed and trimmed, or, for a long text, a start of it longer than the 600 units
 * an excerpt is cut from (collapsing a whole body to keep its first 300 characters was most of the work).
 */
function collapsedStart(text: string): string {
  for (let length = 4 * maxExcerptLength; length < text.length; length *= 4) {
    const start = text.slice(0, length).replace(/\s+/g, ' ').trimStart();
    // Longer than 600 units before its last (maybe cut) whitespace: its first 600 units are the whole text's.
    if (start.trimEnd().length > 2 * maxExcerptLength + 1) return start;
  }
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * An article's excerpt from its HTML body: the text of the first `<p>` that has any, else the text of the whole
 * body (a body without paragraphs, or plain text), then as {@link excerptFromText}.
 */
export function excerptFromHtml(html: string): string {
  if (!html.includes('<') && !html.includes('&')) return excerptFromText(html);
  const whole: string[] = [];
  let paragraph: string[] | null = null;
  let firstParagraph = '';
  let hiddenDepth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (hiddenTags.has(name)) hiddenDepth++;
        if (name === 'p' && !firstParagraph) paragraph = [];
        whole.push(' ');
      },
      onclosetag(name) {
        if (hiddenTags.has(name)) hiddenDepth = Math.max(0, hiddenDepth - 1);
        if (name === 'p' && paragraph !== null) {
          firstParagraph = paragraph.join('').replace(/\s+/g, ' ').trim();
          paragraph = null;
        }
        whole.push(' ');
      },
      ontext(text) {
        if (hiddenDepth > 0) return;
        whole.push(text);
        paragraph?.push(text);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return excerptFromText(firstParagraph || whole.join(''));
}
