import { useRef } from 'react';
import { focusViewHeading } from '../lib/focus';

/**
 * Where the focus goes when a Radix dialog closes (Escape, Cancel, done): back to the control that had it
 * when the dialog opened. Radix returns it to the dialog's Trigger, and ours are opened from state
 * without one, so the focus fell to <body>. When that control is gone (a deleted row), the view's heading.
 * Spread on `Dialog.Content` / `AlertDialog.Content`.
 */
export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    // Runs before Radix moves the focus into the dialog: the focus is still on the opener.
    onOpenAutoFocus: () => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      event.preventDefault();
      const target = opener.current;
      opener.current = null;
      if (target?.isConnected && target !== document.body) target.focus({ preventScroll: true });
      else focusViewHeading();
    },
  };
}
