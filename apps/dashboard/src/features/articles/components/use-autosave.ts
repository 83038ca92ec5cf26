import { useEffect, useRef } from 'react';

/** How long after the last change a draft is saved to the server by itself. */
export const autosaveDelayMs = 3_000;

export type AutosaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  /** Someone else saved the article: autosave stops until Save (with its conflict prompt) or Reload. */
  | { kind: 'conflict' }
  | { kind: 'failed'; message: string };

/**
 * Calls `save` once the draft has not changed for `autosaveDelayMs`, while `enabled` (a draft that is not
 * public: autosave never changes what readers see) and there is something to save. A change restarts the
 * wait; the caller serialises saves, so an autosave and a Save never race for the same version.
 */
export function useAutosave(options: { enabled: boolean; dirty: boolean; draft: unknown; save(): void }) {
  const save = useRef(options.save);
  save.current = options.save;
  const { enabled, dirty, draft } = options;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each change of the draft restarts the wait.
  useEffect(() => {
    if (!enabled || !dirty) return;
    const timer = setTimeout(() => save.current(), autosaveDelayMs);
    return () => clearTimeout(timer);
  }, [enabled, dirty, draft]);
}

// "Saved 12:04": hours and minutes, 24-hour, in the reader's time zone.
const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** The editor's one-line save status, announced politely to screen readers. */
export function saveStatusText(state: {
  isNew: boolean;
  dirty: boolean;
  autosave: AutosaveState;
  lastSavedAt: Date | null;
}): string {
  const { autosave } = state;
  if (autosave.kind === 'saving') return 'Saving…';
  if (state.dirty && autosave.kind === 'conflict') return 'Not saved: someone else changed this article';
  if (state.dirty && autosave.kind === 'failed') return `Not saved automatically: ${autosave.message}`;
  if (state.dirty) return 'Unsaved changes';
  if (state.isNew) return '';
  return state.lastSavedAt ? `Saved ${clock.format(state.lastSavedAt)}` : 'All changes saved';
}
