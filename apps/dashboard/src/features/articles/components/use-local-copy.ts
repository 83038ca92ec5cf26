import { useEffect, useState } from 'react';
import { type ArticleDraft, isDirty } from './article-draft';
import {
  applyChanges,
  changesOf,
  type LocalCopy,
  readLocalCopy,
  removeLocalCopy,
  writeLocalCopy,
} from './local-copy';

/**
 * Keeps the editor's unsaved changes in the browser under `key` (null: no copy, e.g. nobody signed in) and
 * offers a copy left from before. While the offer is open nothing is written, so the copy is not replaced
 * before the person has decided.
 */
export function useLocalCopy(key: string | null, base: ArticleDraft, draft: ArticleDraft, dirty: boolean) {
  const [offer, setOffer] = useState<LocalCopy | null>(() => {
    const copy = key ? readLocalCopy(key) : null;
    if (!copy) return null;
    // A copy that the server already has (saved in another tab, autosaved before the tab closed) is no news.
    if (!isDirty(base, applyChanges(base, copy.changes))) {
      if (key) removeLocalCopy(key);
      return null;
    }
    return copy;
  });

  useEffect(() => {
    if (!key || offer) return;
    if (dirty) writeLocalCopy(key, { changes: changesOf(base, draft), savedAt: new Date().toISOString() });
    else removeLocalCopy(key);
  }, [key, offer, dirty, base, draft]);

  return {
    offer,
    /** The draft with the copy's changes, to put in the editor; the copy is then kept as the draft changes. */
    restore(): ArticleDraft {
      setOffer(null);
      return applyChanges(base, offer?.changes ?? {});
    },
    discard() {
      if (key) removeLocalCopy(key);
      setOffer(null);
    },
    /** The person chose to drop the changes (left without saving, deleted) or the server has them. */
    forget() {
      if (key) removeLocalCopy(key);
    },
  };
}
