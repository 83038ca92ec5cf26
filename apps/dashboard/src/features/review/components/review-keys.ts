// The review queue's keyboard: pure functions, so the rules are tested without a browser.

export type ReviewCommand = 'next' | 'previous' | 'approve' | 'reject';

const commands: Record<string, ReviewCommand> = { j: 'next', k: 'previous', a: 'approve', r: 'reject' };

export const reviewShortcuts: { key: string; does: string }[] = [
  { key: 'j', does: 'next article' },
  { key: 'k', does: 'previous article' },
  { key: 'a', does: 'approve' },
  { key: 'r', does: 'reject' },
];

// Inputs that take no text: a letter pressed on them is still a shortcut.
const nonTextInputs = new Set(['checkbox', 'radio', 'button', 'submit', 'reset']);

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  defaultPrevented: boolean;
  isComposing?: boolean;
  target: EventTarget | null;
}

/** True while the person types: in a field, a select, an editable element, or a dialog. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  if (element.tagName === 'INPUT') return !nonTextInputs.has((element as HTMLInputElement).type);
  return (
    element.closest('textarea, select, [contenteditable], [role="dialog"], [role="alertdialog"]') !== null
  );
}

/** The command a key press asks for, or null (modifiers, typing, or another key). */
export function reviewCommandFor(event: KeyLike): ReviewCommand | null {
  if (event.defaultPrevented || event.isComposing) return null;
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  if (isTypingTarget(event.target)) return null;
  return commands[event.key] ?? null;
}

/** The id one step away from `current` in `ids` (stays at the ends; the first when nothing is selected). */
export function stepSelection(ids: readonly string[], current: string | null, step: 1 | -1): string | null {
  if (ids.length === 0) return null;
  const index = current === null ? -1 : ids.indexOf(current);
  if (index === -1) return ids[0] ?? null;
  return ids[Math.min(ids.length - 1, Math.max(0, index + step))] ?? null;
}

/**
 * What to select once `done` leave the list: the first remaining item after the current one, else the
 * nearest remaining one before it, else nothing.
 */
export function selectionAfter(
  ids: readonly string[],
  current: string | null,
  done: ReadonlySet<string>,
): string | null {
  const index = current === null ? -1 : ids.indexOf(current);
  for (let i = index + 1; i < ids.length; i++) {
    const id = ids[i] as string;
    if (!done.has(id)) return id;
  }
  for (let i = Math.min(index, ids.length) - 1; i >= 0; i--) {
    const id = ids[i] as string;
    if (!done.has(id)) return id;
  }
  return null;
}
