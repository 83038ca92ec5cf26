import { useId } from 'react';
import type { WebhookEndpoint } from '../../../api/webhooks';
import { useEditWebhook } from '../../../api/webhooks';
import { Button } from '../../../components/button';
import { FormError, SubmitRow } from '../../../components/form/form-error';
import { useApiForm } from '../../../components/form/use-api-form';
import { useToast } from '../../../components/toaster';
import { WebhookDeliveryFields } from './webhook-delivery-fields';
import { webhookCodeFields } from './webhook-fields';

/** Events, scope and enabled of an endpoint (enabling a disabled one clears its recorded failure). */
export function EditWebhookForm({ endpoint, onDone }: { endpoint: WebhookEndpoint; onDone(): void }) {
  const headingId = useId();
  const toast = useToast();
  const { form, onSubmit, busy, formError } = useApiForm({
    defaultValues: { events: endpoint.events, site: endpoint.site, enabled: endpoint.enabled },
    toBody: (values) => values,
    schema: 'editWebhook',
    mutation: useEditWebhook(endpoint.id),
    codeFields: webhookCodeFields,
    onSuccess: () => {
      toast({ kind: 'success', title: 'Endpoint saved' });
      onDone();
    },
  });

  return (
    <form className="stack webhook-edit" onSubmit={onSubmit} noValidate aria-labelledby={headingId}>
      <h3 id={headingId}>Edit {endpoint.url}</h3>
      <FormError message={formError} />
      <WebhookDeliveryFields control={form.control} />
      {!endpoint.enabled && endpoint.disabledReason && (
        <p className="field-hint">Enabling it clears the recorded failure and sends new events again.</p>
      )}
      <SubmitRow label="Save" busy={busy}>
        <Button onClick={onDone}>Cancel</Button>
      </SubmitRow>
    </form>
  );
}
