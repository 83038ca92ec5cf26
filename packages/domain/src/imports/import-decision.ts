import type { ImportRules } from '../import-rules';
import type { ImportableFeedItem } from './imported-article';

/** Which rule decided an item's fate (null: no rule applied, the item is imported as usual). */
export type DecidingRule =
  | 'alreadyImported'
  | 'excludeKeywords'
  | 'includeKeywords'
  | 'maxNewItemsPerFetch'
  | null;

/**
 * What happens to one feed item: `import` (saved now), `skip` (never stored: already imported, or
 * refused by a keyword rule) or `wait` (over the per-fetch cap: saved by a later fetch).
 */
export interface ItemDecision {
  outcome: 'import' | 'skip' | 'wait';
  rule: DecidingRule;
  /** The keyword that decided, for the keyword rules. */
  keyword?: string;
}

const wordChar = '[\\p{L}\\p{N}_]';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One case-insensitive whole-word pattern per keyword; a phrase's spaces match any whitespace. */
function keywordPattern(keyword: string): RegExp {
  const words = keyword.split(' ').map(escapeRegExp).join('\\s+');
  return new RegExp(`(?<!${wordChar})${words}(?!${wordChar})`, 'iu');
}

const patternCache = new WeakMap<readonly string[], { keyword: string; pattern: RegExp }[]>();

function patternsOf(keywords: readonly string[]) {
  let patterns = patternCache.get(keywords);
  if (!patterns) {
    patterns = keywords.map((keyword) => ({ keyword, pattern: keywordPattern(keyword) }));
    patternCache.set(keywords, patterns);
  }
  return patterns;
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The words of an item: its title and its body's text (the body is sanitised HTML). */
export function itemText(item: Pick<ImportableFeedItem, 'title' | 'body'>): string {
  const bodyText = item.body
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== '#') return entities[name.toLowerCase()] ?? whole;
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
    });
  return `${item.title}\n${bodyText}`;
}

function firstMatch(keywords: readonly string[], text: string): string | undefined {
  return patternsOf(keywords).find(({ pattern }) => pattern.test(text))?.keyword;
}

/**
 * The keyword rules for one item: an exclude keyword in the title or text skips it (checked first);
 * then, when include keywords are set, the item is imported only if it has one of them.
 */
export function decideByKeywords(
  item: Pick<ImportableFeedItem, 'title' | 'body'>,
  rules: Pick<ImportRules, 'includeKeywords' | 'excludeKeywords'>,
): ItemDecision {
  if (rules.excludeKeywords.length === 0 && rules.includeKeywords.length === 0) {
    return { outcome: 'import', rule: null };
  }
  const text = itemText(item);
  const excluded = firstMatch(rules.excludeKeywords, text);
  if (excluded !== undefined) return { outcome: 'skip', rule: 'excludeKeywords', keyword: excluded };
  if (rules.includeKeywords.length === 0) return { outcome: 'import', rule: null };
  const included = firstMatch(rules.includeKeywords, text);
  return included === undefined
    ? { outcome: 'skip', rule: 'includeKeywords' }
    : { outcome: 'import', rule: 'includeKeywords', keyword: included };
}

/**
 * The positions (in `items`) of the `max` oldest items: by the item's own date, undated items counting
 * as older than dated ones, and ties (or no dates) in reverse feed order (feeds list newest first).
 */
export function oldestPositions(
  items: readonly Pick<ImportableFeedItem, 'publishedAt'>[],
  max: number,
): Set<number> {
  const order = items.map((item, position) => ({
    time: item.publishedAt?.getTime() ?? Number.NEGATIVE_INFINITY,
    position,
  }));
  order.sort((a, b) => a.time - b.time || b.position - a.position);
  return new Set(order.slice(0, max).map((entry) => entry.position));
}

/**
 * The one place where a publisher's rules decide which feed items become articles (import and
 * preview alike). `items` are the feed's items (first occurrence of each guid); `alreadyImported`
 * the guids the publisher has. Order of the rules: already imported → skip; exclude keywords →
 * skip; include keywords → skip when none matches; then, of the items left, the
 * `maxNewItemsPerFetch` oldest are imported and the rest wait (not stored, so the next fetch sees
 * them as new again).
 */
export function decideFeedItems(
  items: readonly ImportableFeedItem[],
  rules: ImportRules,
  alreadyImported: ReadonlySet<string>,
): ItemDecision[] {
  const decisions = items.map(
    (item): ItemDecision =>
      alreadyImported.has(item.guid)
        ? { outcome: 'skip', rule: 'alreadyImported' }
        : decideByKeywords(item, rules),
  );
  const max = rules.maxNewItemsPerFetch;
  if (max === null) return decisions;
  const candidates = decisions.flatMap((decision, position) =>
    decision.outcome === 'import' ? [position] : [],
  );
  if (candidates.length <= max) return decisions;
  const kept = oldestPositions(
    candidates.map((position) => items[position] as ImportableFeedItem),
    max,
  );
  candidates.forEach((position, index) => {
    if (!kept.has(index)) decisions[position] = { outcome: 'wait', rule: 'maxNewItemsPerFetch' };
  });
  return decisions;
}
