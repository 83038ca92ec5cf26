import feedparserConstants from 'feedparser/lib/constants.js';
import feedparserUtils from 'feedparser/lib/utils.js';

// feedparser resolves the URLs inside every item's HTML (description, content:encoded, ...) against the
// base we give it (PLACEHOLDER_BASE) with its `resolveHtmlUris`, which copies the HTML one character at a
// time (`out += html[i]`): ~20% of our parsing CPU, most of it in the thousands of tiny strings it makes.
// `fastResolveHtmlUris` returns exactly the same string (tested against feedparser's own on every fixture
// and on generated markup): it copies the text between tags in slices and returns the input itself when
// no URL changed. The scanner below is feedparser 2.6.0's `readMarkupAt` / `rewriteHtmlTagUris`, ported
// as is. load-feedparser.ts makes feedparser use it.

interface FeedparserUtils {
  resolveHtmlUris(html: string, baseUrl: string): string;
  resolveHtmlAttributeValue(baseUrl: string, name: string, value: string): string;
}
const utils = feedparserUtils as FeedparserUtils;
const HTML_TAGS = (feedparserConstants as { HTML_TAGS: Set<string> }).HTML_TAGS;

/** feedparser's own resolveHtmlUris, kept for the equivalence tests. */
export const feedparserResolveHtmlUris = utils.resolveHtmlUris;

/**
 * Replaces `resolveHtmlUris` in the exports of feedparser's utils module. feedparser copies those
 * exports when its main module is loaded (`const _ = { ...require('./utils') }`), so this works only
 * before that: see load-feedparser.ts. Throws if feedparser no longer has what this relies on.
 */
export function installFastHtmlUriResolver(): void {
  if (typeof utils.resolveHtmlUris !== 'function' || typeof utils.resolveHtmlAttributeValue !== 'function') {
    throw new Error('feedparser/lib/utils no longer exports resolveHtmlUris and resolveHtmlAttributeValue');
  }
  if (!(HTML_TAGS instanceof Set)) throw new Error('feedparser/lib/constants no longer exports HTML_TAGS');
  utils.resolveHtmlUris = fastResolveHtmlUris;
}

/** Whether feedparser has called {@link fastResolveHtmlUris} in this process (checked by a test). */
export let fastResolverUsed = false;

/** What feedparser's resolveHtmlUris returns for the same arguments, computed without per-character copies. */
export function fastResolveHtmlUris(html: string, baseUrl: string): string {
  fastResolverUsed = true;
  if (!baseUrl || !html || typeof html !== 'string') return html;
  let out = '';
  let copied = 0;
  let at = html.indexOf('<');
  while (at !== -1) {
    const markup = readMarkupAt(html, at);
    // Comments, processing instructions and declarations have no tagName: scanned into, like text.
    if (markup?.tagName && !markup.isClosing && HTML_TAGS.has(markup.tagName)) {
      const end = at + markup.len;
      const tag = html.slice(at, end);
      const rewritten = rewriteHtmlTagUris(tag, baseUrl);
      if (rewritten !== tag) {
        out += html.slice(copied, at) + rewritten;
        copied = end;
      }
      at = html.indexOf('<', end);
    } else {
      at = html.indexOf('<', at + 1);
    }
  }
  return copied === 0 ? html : out + html.slice(copied);
}

interface Markup {
  alwaysStrip?: true;
  tagName?: string;
  isClosing?: boolean;
  len: number;
}

// The markup starting at str[i] (a '<'): a comment, processing instruction or declaration, or a tag
// ending at the first '>' outside a quoted attribute value; null when it is none of these.
function readMarkupAt(str: string, i: number): Markup | null {
  if (str.slice(i, i + 4) === '<!--') {
    const commentEnd = str.indexOf('-->', i + 4);
    return commentEnd !== -1 ? { alwaysStrip: true, len: commentEnd + 3 - i } : null;
  }
  if (str[i + 1] === '?') {
    const piEnd = str.indexOf('?>', i + 2);
    return piEnd !== -1 ? { alwaysStrip: true, len: piEnd + 2 - i } : null;
  }
  if (str[i + 1] === '!') {
    const declEnd = str.indexOf('>', i + 2);
    return declEnd !== -1 ? { alwaysStrip: true, len: declEnd + 1 - i } : null;
  }
  const isClosing = str[i + 1] === '/';
  let j = isClosing ? i + 2 : i + 1;
  const nameStart = j;
  while (j < str.length) {
    const code = str.charCodeAt(j);
    const isLetter = (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
    const isDigit = code >= 48 && code <= 57;
    if (j === nameStart ? !isLetter : !(isLetter || isDigit)) break;
    j++;
  }
  const tagName = str.slice(nameStart, j).toLowerCase();
  if (!tagName) return null;
  let quote: string | null = null;
  while (j < str.length) {
    const ch = str[j];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '>') {
      return { tagName, isClosing, len: j + 1 - i };
    }
    j++;
  }
  return null;
}

function rewriteHtmlTagUris(tag: string, baseUrl: string): string {
  let i = 1;
  let out = '';
  let last = 0;
  if (tag[i] === '/') return tag;
  while (i < tag.length && !/[\s/>]/.test(tag[i] as string)) i++;
  while (i < tag.length) {
    while (i < tag.length && /\s/.test(tag[i] as string)) i++;
    if (i >= tag.length || tag[i] === '>' || tag[i] === '/') break;
    const nameStart = i;
    while (i < tag.length && !/[\s=/>]/.test(tag[i] as string)) i++;
    const name = tag.slice(nameStart, i);
    while (i < tag.length && /\s/.test(tag[i] as string)) i++;
    if (tag[i] !== '=') continue;
    i++;
    while (i < tag.length && /\s/.test(tag[i] as string)) i++;
    let quote: string | null = null;
    if (tag[i] === '"' || tag[i] === "'") {
      quote = tag[i] as string;
      i++;
    }
    const valueStart = i;
    if (quote) {
      while (i < tag.length && tag[i] !== quote) i++;
    } else {
      while (i < tag.length && !/[\s/>]/.test(tag[i] as string)) i++;
    }
    const valueEnd = i;
    const value = tag.slice(valueStart, valueEnd);
    const resolved = utils.resolveHtmlAttributeValue(baseUrl, name, value);
    if (resolved !== value) {
      out += tag.slice(last, valueStart) + resolved;
      last = valueEnd;
    }
    if (quote && tag[i] === quote) i++;
  }
  return out ? out + tag.slice(last) : tag;
}
