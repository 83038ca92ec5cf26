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

/** What a reader of an HTML fragment's visible text is told, in document order. */
export interface VisibleTextHandler {
  /** Every opening tag, hidden ones included (a tag's boundary may still separate words). */
  open(name: string): void;
  /** Every closing tag, implied ones included. */
  close(name: string): void;
  /** Text a reader sees (not inside a hidden element), entities decoded; one run may come in several calls. */
  text(text: string): void;
}

/**
 * The one walk over HTML shared by htmlToText and the excerpt: an htmlparser2 parser (entities decoded) that
 * hands `handler` the tags and only the text outside script, style, noscript, template, iframe and object.
 * The caller writes the HTML to it (in pieces if it may stop early) and ends it.
 */
export function visibleTextParser(handler: VisibleTextHandler): Parser {
  let hiddenDepth = 0;
  return new Parser(
    {
      onopentag(name) {
        if (HIDDEN_TAGS.has(name)) hiddenDepth++;
        handler.open(name);
      },
      onclosetag(name) {
        if (HIDDEN_TAGS.has(name)) hiddenDepth = Math.max(0, hiddenDepth - 1);
        handler.close(name);
      },
      ontext(text) {
        if (hiddenDepth === 0) handler.text(text);
      },
    },
    { decodeEntities: true },
  );
}
