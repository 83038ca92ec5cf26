import { isDeepStrictEqual } from 'node:util';
import { diffArrays } from 'diff';
import type { ArticleSnapshot } from './article-snapshot';

/** One field that differs between two snapshots (absent values are null). */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** A run of the body diff: text both share, or text only the older (`delete`) or newer (`insert`) has. */
export interface BodyDiffPart {
  op: 'equal' | 'delete' | 'insert';
  text: string;
}

/** Tokens of an HTML body: a whole tag, a run of whitespace, a word. A tag is never split by a diff. */
const htmlTokens = /<[^>]*>|\s+|[^\s<]+/g;

/** Beyond this many edits the body diff gives up on detail: the whole old body against the whole new one. */
const maxEditLength = 4_000;

/** Field-by-field differences from `from` to `to`, in a stable order (the fields of `to`, then any others). */
export function diffSnapshots(from: ArticleSnapshot, to: ArticleSnapshot): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of new Set([...Object.keys(to), ...Object.keys(from)])) {
    if (!isDeepStrictEqual(from[field], to[field])) {
      changes.push({ field, from: from[field] ?? null, to: to[field] ?? null });
    }
  }
  return changes;
}

/**
 * The body as an HTML-aware text diff: tags, words and spaces are the tokens, so a change shows as
 * words inserted or deleted and markup stays whole. Adjacent runs of one kind are merged.
 */
export function diffBodies(from: string, to: string): BodyDiffPart[] {
  if (from === to) return from === '' ? [] : [{ op: 'equal', text: from }];
  const changes = diffArrays(from.match(htmlTokens) ?? [], to.match(htmlTokens) ?? [], { maxEditLength });
  if (!changes) {
    return [
      ...(from ? [{ op: 'delete' as const, text: from }] : []),
      ...(to ? [{ op: 'insert' as const, text: to }] : []),
    ];
  }
  const parts: BodyDiffPart[] = [];
  for (const change of changes) {
    const op = change.added ? 'insert' : change.removed ? 'delete' : 'equal';
    const text = change.value.join('');
    const last = parts.at(-1);
    if (last && last.op === op) last.text += text;
    else if (text !== '') parts.push({ op, text });
  }
  return parts;
}
