import { isDeepStrictEqual } from 'node:util';
import type { ArticleSnapshot } from './article-snapshot';

// Reverse deltas (as RCS): the newest revision is stored whole, each older one as what turns the snapshot
// after it back into it. A delta maps a field to one of:
//   ['v', value]                      the field's value was this
//   ['u']                             the field was absent (a field added to articles later)
//   ['s', prefix, suffix, middle]     a long string: keep `prefix` leading and `suffix` trailing characters
//                                     of the newer value, with `middle` between them
// An edit in one place of a 3 KB body costs the edit, not the body.

export type FieldDelta = ['v', unknown] | ['u'] | ['s', number, number, string];
export type SnapshotDelta = Record<string, FieldDelta>;

/** Strings shorter than this are stored whole: the prefix/suffix bookkeeping would cost more. */
const longString = 64;

/** What turns `newer` back into `older`. */
export function reverseDelta(newer: ArticleSnapshot, older: ArticleSnapshot): SnapshotDelta {
  const delta: SnapshotDelta = {};
  for (const key of new Set([...Object.keys(newer), ...Object.keys(older)])) {
    const from = newer[key];
    const to = older[key];
    if (!(key in older)) delta[key] = ['u'];
    else if (key in newer && isDeepStrictEqual(from, to)) continue;
    else if (typeof from === 'string' && typeof to === 'string' && to.length >= longString) {
      delta[key] = stringDelta(from, to);
    } else delta[key] = ['v', to];
  }
  return delta;
}

/** `newer` with `delta` applied: the snapshot before it. */
export function applyDelta(newer: ArticleSnapshot, delta: SnapshotDelta): ArticleSnapshot {
  const older: ArticleSnapshot = { ...newer };
  for (const [key, change] of Object.entries(delta)) {
    if (change[0] === 'u') delete older[key];
    else if (change[0] === 'v') older[key] = change[1];
    else {
      const value = newer[key] as string;
      const [, prefix, suffix, middle] = change;
      older[key] = value.slice(0, prefix) + middle + value.slice(value.length - suffix);
    }
  }
  return older;
}

function stringDelta(from: string, to: string): FieldDelta {
  const max = Math.min(from.length, to.length);
  let prefix = 0;
  while (prefix < max && from.charCodeAt(prefix) === to.charCodeAt(prefix)) prefix += 1;
  let suffix = 0;
  while (
    suffix < max - prefix &&
    from.charCodeAt(from.length - 1 - suffix) === to.charCodeAt(to.length - 1 - suffix)
  ) {
    suffix += 1;
  }
  // Never split a surrogate pair: jsonb would refuse the lone half.
  while (prefix > 0 && isHighSurrogate(from.charCodeAt(prefix - 1))) prefix -= 1;
  while (suffix > 0 && isLowSurrogate(from.charCodeAt(from.length - suffix))) suffix -= 1;
  return ['s', prefix, suffix, to.slice(prefix, to.length - suffix)];
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
