import { useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { focusViewHeadingWhenShown } from '../lib/focus';

/**
 * On every change of view (a new path, not a new filter in the search), the keyboard focus moves to
 * the new view's heading, as a page load would start a screen reader there; otherwise it falls to
 * <body> when the control that had it leaves with the old view. The first page load keeps the
 * browser's own start. One mechanism for every view, at the root of the route tree.
 */
export function RouteFocus() {
  const pathname = useRouterState({ select: (state) => state.resolvedLocation?.pathname });
  const previous = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (pathname === undefined) return;
    const before = previous.current;
    previous.current = pathname;
    if (before === undefined || before === pathname) return;
    return focusViewHeadingWhenShown();
  }, [pathname]);
  return null;
}
