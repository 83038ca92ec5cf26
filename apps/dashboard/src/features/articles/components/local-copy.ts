import type { ArticleDraft } from './article-draft';

// The browser's copy of an editor's unsaved changes (localStorage, one entry per person and article, or per
// person for a new draft). Written as the text changes, removed once the server has it; offered back when
// the editor opens again after a crash, a closed tab or a lost session. Only the changed fields are kept, so
// restoring over a version someone else saved meanwhile brings back this person's changes, not old values of
// the other fields.

export interface LocalCopy {
  changes: Partial<ArticleDraft>;
  /** When the copy was last written (ISO). */
  savedAt: string;
}

const prefix = 'newsroom:article-copy';

/** One entry per person (a shared browser never offers one person's text to another) and article. */
export const localCopyKey = (userId: string, articleId: string | null): string =>
  `${prefix}:${userId}:${articleId ?? 'new'}`;

/** localStorage, or null where it is unavailable (disabled, a sandbox): the editor then keeps no copy. */
function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function readLocalCopy(key: string): LocalCopy | null {
  try {
    const text = storage()?.getItem(key);
    if (!text) return null;
    const copy = JSON.parse(text) as LocalCopy;
    return typeof copy === 'object' && copy && typeof copy.changes === 'object' && copy.changes ? copy : null;
  } catch {
    return null;
  }
}

export function writeLocalCopy(key: string, copy: LocalCopy): void {
  try {
    storage()?.setItem(key, JSON.stringify(copy));
  } catch {
    // Full or refused: the server's autosave and the unsaved-changes prompt still guard the text.
  }
}

export function removeLocalCopy(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {
    // Nothing to do: an entry that cannot be removed is offered again, and can be discarded then.
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields of `draft` that differ from `base`. */
export function changesOf(base: ArticleDraft, draft: ArticleDraft): Partial<ArticleDraft> {
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(draft) as (keyof ArticleDraft)[]) {
    if (!same(draft[key], base[key])) changes[key] = draft[key];
  }
  return changes as Partial<ArticleDraft>;
}

/** `base` with the copy's changes over it (fields the copy does not know are ignored). */
export function applyChanges(base: ArticleDraft, changes: Partial<ArticleDraft>): ArticleDraft {
  const next: Record<string, unknown> = { ...base };
  for (const key of Object.keys(base) as (keyof ArticleDraft)[]) {
    if (key in changes && typeof changes[key] === typeof base[key]) next[key] = changes[key];
  }
  return next as unknown as ArticleDraft;
}
