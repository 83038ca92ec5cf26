import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { Button } from '../../../components/button';
import { useReturnFocus } from '../../../components/use-return-focus';

/** A save refused with 412: someone saved the article after it was loaded. Nothing of the draft is lost. */
export function ConflictDialog({
  open,
  busy,
  onReload,
  onOverwrite,
  onCancel,
}: {
  open: boolean;
  busy: boolean;
  onReload(): void;
  onOverwrite(): void;
  onCancel(): void;
}) {
  const returnFocus = useReturnFocus();
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && onCancel()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog-content" {...returnFocus}>
          <AlertDialog.Title asChild>
            <h2>Changed by someone else</h2>
          </AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="stack">
              <p>
                This article was saved by someone else after you opened it. Your changes are not saved yet.
              </p>
              <p>
                <strong>Reload</strong> shows their version and discards your changes.{' '}
                <strong>Overwrite</strong> saves the fields you changed over their version.
              </p>
            </div>
          </AlertDialog.Description>
          <div className="dialog-actions">
            <AlertDialog.Cancel asChild>
              <Button>Keep editing</Button>
            </AlertDialog.Cancel>
            <Button disabled={busy} onClick={onReload}>
              Reload (discard mine)
            </Button>
            <Button variant="danger" busy={busy} onClick={onOverwrite}>
              Overwrite
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
