import { type FocusEvent, type KeyboardEvent, useLayoutEffect, useRef } from 'react';

const moves: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_i, n) => n - 1,
};

/**
 * The WAI-ARIA toolbar's roving tab index: the toolbar is one tab stop (the button used last, else the
 * first), Left/Right move between its buttons (wrapping), Home/End go to the first/last. Spread the
 * answer on the element with role="toolbar"; its enabled buttons are the items.
 */
export function useRovingTabIndex<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const current = useRef(0);
  const items = () => Array.from(ref.current?.querySelectorAll<HTMLElement>('button:not([disabled])') ?? []);
  const apply = () =>
    items().forEach((item, index) => {
      item.tabIndex = index === current.current ? 0 : -1;
    });
  // After every render: the buttons may have changed.
  useLayoutEffect(apply);

  return {
    ref,
    onFocus(event: FocusEvent<T>) {
      const index = items().indexOf(event.target as HTMLElement);
      if (index >= 0 && index !== current.current) {
        current.current = index;
        apply();
      }
    },
    onKeyDown(event: KeyboardEvent<T>) {
      const move = moves[event.key];
      const all = items();
      if (!move || all.length === 0 || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      current.current = move(Math.max(0, all.indexOf(document.activeElement as HTMLElement)), all.length);
      apply();
      all[current.current]?.focus();
    },
  };
}
