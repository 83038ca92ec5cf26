import { Button } from '../../../components/button';
import { formatDateTime } from '../../../lib/format';
import type { LocalCopy } from './local-copy';

/** A copy of unsaved changes left in this browser (a closed tab, a crash): put it back, or drop it. */
export function RestoreOffer({
  copy,
  isNew,
  onRestore,
  onDiscard,
}: {
  copy: LocalCopy;
  isNew: boolean;
  onRestore(): void;
  onDiscard(): void;
}) {
  return (
    <section className="alert alert-warning stack" aria-label="Unsaved text from before">
      <p>
        This browser kept changes to this {isNew ? 'new article' : 'article'} that were never saved (last
        typed {formatDateTime(copy.savedAt)}), e.g. from a closed tab or a crash.
      </p>
      <div className="row">
        <Button variant="primary" onClick={onRestore}>
          Restore
        </Button>
        <Button onClick={onDiscard}>Discard</Button>
      </div>
    </section>
  );
}
