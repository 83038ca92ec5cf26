import { useEffect, useRef } from 'react';
import { type ReviewCommand, reviewCommandFor } from './review-keys';

/** Listens for j / k / a / r on the page while the view is open (never while typing in a field). */
export function useReviewShortcuts(onCommand: (command: ReviewCommand) => void): void {
  const handler = useRef(onCommand);
  handler.current = onCommand;
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      const command = reviewCommandFor(event);
      if (!command) return;
      event.preventDefault();
      handler.current(command);
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);
}
