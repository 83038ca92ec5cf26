import { reviewShortcuts } from './review-keys';

/** The keyboard shortcuts, always on screen. */
export function ReviewShortcuts() {
  return (
    <p className="review-shortcuts muted" id="review-shortcuts">
      <span>Keyboard:</span>
      {reviewShortcuts.map((shortcut) => (
        <span key={shortcut.key}>
          <kbd>{shortcut.key}</kbd> {shortcut.does}
        </span>
      ))}
    </p>
  );
}
