/**
 * Focuses the current view's heading (the first <h1>, inside <main> when there is one), made focusable
 * for it; answers false when the page has none yet. The scroll position is left alone (the router
 * restores it on Back).
 */
export function focusViewHeading(): boolean {
  const heading = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');
  if (!heading) return false;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: true });
  return true;
}

/**
 * Focuses the view's heading as soon as it is rendered (a lazy view or its data may come a moment
 * later), for at most `waitMs`. Answers a function that stops waiting.
 */
export function focusViewHeadingWhenShown(waitMs = 3_000): () => void {
  if (focusViewHeading()) return () => {};
  const observer = new MutationObserver(() => {
    if (focusViewHeading()) stop();
  });
  const timer = setTimeout(() => stop(), waitMs);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  return stop;
}
