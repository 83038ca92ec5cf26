import type { WebhookEndpoint } from '../../../api/webhooks';
import { useDeleteWebhook } from '../../../api/webhooks';
import { ConfirmDialog } from '../../../components/confirm-dialog';

/** Asks before deleting an endpoint and its delivery log. */
export function DeleteWebhookDialog({
  endpoint,
  onClose,
}: {
  endpoint: WebhookEndpoint | null;
  onClose(): void;
}) {
  const remove = useDeleteWebhook();
  return (
    <ConfirmDialog
      open={endpoint !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Delete this endpoint?"
      confirmLabel="Delete endpoint"
      busy={remove.isPending}
      onConfirm={() => {
        if (endpoint) remove.mutate(endpoint.id, { onSuccess: onClose });
      }}
    >
      <p>
        <code className="webhook-url">{endpoint?.url}</code> receives no more events, and its delivery log is
        deleted with it. Pending retries are dropped. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
