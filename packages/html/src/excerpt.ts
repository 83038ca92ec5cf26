import { collapseWhitespace, truncateText } from './html-text';
import { visibleTextParser } from './visible-text';

/** At most this many characters (code points), ellipsis included. */
export const maxExcerptLength = 300;

/**
 * An article's excerpt from plain text: whitespace collapsed, at most 300 characters, cut at a word boundary
 * (when one is in the second half) and marked with an ellipsis.
 */
export function excerptFromText(text: string): string {
  return truncateText(collapsedStart(text), maxExcerptLength);
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
  return collapseWhitespace(text);
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
  // Every tag separates words here, not only block tags as in htmlToText: "a<b>b</b>" reads "a b".
  const parser = visibleTextParser({
    open(name) {
      if (name === 'p' && !firstParagraph) paragraph = [];
      whole.push(' ');
    },
    close(name) {
      if (name === 'p' && paragraph !== null) {
        firstParagraph = collapseWhitespace(paragraph.join(''));
        paragraph = null;
      }
      whole.push(' ');
    },
    text(text) {
      whole.push(text);
      paragraph?.push(text);
    },
  });
  parser.write(html);
  parser.end();
  return excerptFromText(firstParagraph || whole.join(''));
}
