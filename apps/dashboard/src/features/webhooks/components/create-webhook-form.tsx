import { useCreateWebhook } from '../../../api/webhooks';
import { FormError, SubmitRow } from '../../../components/form/form-error';
import { FormTextField } from '../../../components/form/form-fields';
import { useApiForm } from '../../../components/form/use-api-form';
import { useToast } from '../../../components/toaster';
import { WebhookDeliveryFields, type WebhookDeliveryValues } from './webhook-delivery-fields';
import { webhookCodeFields, webhookEventTypes } from './webhook-fields';
import { WebhookSecretNotice } from './webhook-secret-notice';

/** A new endpoint: URL, events, scope, enabled; then its signing secret, shown once. */
export function CreateWebhookForm() {
  const create = useCreateWebhook();
  const toast = useToast();
  const defaults: WebhookDeliveryValues & { url: string } = {
    url: '',
    events: webhookEventTypes,
    site: null,
    enabled: true,
  };
  const { form, onSubmit, busy, formError } = useApiForm({
    defaultValues: defaults,
    toBody: ({ url, events, site, enabled }) => ({ url: url.trim(), events, site, enabled }),
    schema: 'createWebhook',
    mutation: create,
    codeFields: webhookCodeFields,
    onSuccess: (endpoint, _values, reset) => {
      toast({ kind: 'success', title: `Endpoint ${endpoint.url} registered` });
      reset();
    },
  });

  return (
    <form className="card stack" onSubmit={onSubmit} noValidate aria-labelledby="new-webhook-heading">
      <h2 id="new-webhook-heading">New endpoint</h2>
      {create.data && <WebhookSecretNotice secret={create.data.secret} onDone={() => create.reset()} />}
      <FormError message={formError} />
      <FormTextField
        control={form.control}
        name="url"
        label="URL"
        type="url"
        placeholder="https://news.example.com/hooks/newsroom"
        hint="Where the events are POSTed. Private and internal addresses are refused."
        required
      />
      <WebhookDeliveryFields control={form.control} />
      <SubmitRow label="Register endpoint" busy={busy} />
    </form>
  );
}
