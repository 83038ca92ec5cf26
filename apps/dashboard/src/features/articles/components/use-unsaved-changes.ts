import { useBlocker } from '@tanstack/react-router';

/**
 * While `dirty`, leaving asks first: in-app navigation through the router's blocker (the caller shows the
 * question with `status`, `proceed`, `reset`), a reload or a closed tab through the browser's own prompt.
 */
export function useUnsavedChanges(dirty: boolean) {
  return useBlocker({
    shouldBlockFn: () => dirty,
    enableBeforeUnload: () => dirty,
    withResolver: true,
  });
}
