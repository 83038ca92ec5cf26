import { useDeletePublisher } from '../../../api/publishers';
import { ConfirmDialog } from '../../../components/confirm-dialog';

/** Asks before deleting, and says what happens to the publisher's articles. */
export function DeletePublisherDialog({
  publisher,
  onClose,
  onDeleted,
}: {
  publisher: { id: string; name: string } | null;
  onClose(): void;
  onDeleted?: () => void;
}) {
  const remove = useDeletePublisher();
  return (
    <ConfirmDialog
      open={publisher !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={`Delete ${publisher?.name ?? 'publisher'}?`}
      confirmLabel="Delete publisher"
      busy={remove.isPending}
      onConfirm={() => {
        if (!publisher) return;
        remove.mutate(publisher.id, {
          onSuccess: () => {
            onClose();
            onDeleted?.();
          },
        });
      }}
    >
      <p>
        The publisher and its login are deleted, and its feed is no longer imported. This cannot be undone.
      </p>
      <p>
        Its articles stay: published ones remain published, with the publisher's name as their source. To
        remove them from the sites, unpublish or delete them as articles.
      </p>
    </ConfirmDialog>
  );
}
