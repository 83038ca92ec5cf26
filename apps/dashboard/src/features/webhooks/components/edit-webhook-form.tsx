import { type FormEvent, useId, useState } from 'react';
import type { WebhookEndpoint, WebhookEventType } from '../../../api/webhooks';
import { useEditWebhook } from '../../../api/webhooks';
import { Button } from '../../../components/button';
import { useToast } from '../../../components/toaster';
import { errorMessage } from '../../../lib/api-error';
import { fieldErrors } from '../../../lib/field-errors';
import { WebhookEventsField, WebhookSiteField, webhookCodeFields, webhookFields } from './webhook-fields';

/** Events, scope and enabled of an endpoint (enabling a disabled one clears its recorded failure). */
export function EditWebhookForm({ endpoint, onDone }: { endpoint: WebhookEndpoint; onDone(): void }) {
  const headingId = useId();
  const [events, setEvents] = useState<WebhookEventType[]>(endpoint.events);
  const [site, setSite] = useState<string | null>(endpoint.site);
  const [enabled, setEnabled] = useState(endpoint.enabled);
  const edit = useEditWebhook(endpoint.id);
  const toast = useToast();
  const errors = fieldErrors(edit.error, webhookFields, webhookCodeFields);
  const unplaced = edit.isError && Object.keys(errors).length === 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    edit.mutate(
      { events, site, enabled },
      {
        onSuccess: () => {
          toast({ kind: 'success', title: 'Endpoint saved' });
          onDone();
        },
      },
    );
  }

  return (
    <form className="stack webhook-edit" onSubmit={submit} noValidate aria-labelledby={headingId}>
      <h3 id={headingId}>Edit {endpoint.url}</h3>
      {unplaced && (
        <div className="alert alert-error" role="alert">
          {errorMessage(edit.error)}
        </div>
      )}
      <WebhookEventsField value={events} onChange={setEvents} error={errors.events} />
      <div className="webhook-form-grid">
        <WebhookSiteField value={site} onChange={setSite} error={errors.site} />
        <label className="checkbox-field">
          <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />
          Enabled: send events
        </label>
      </div>
      {!endpoint.enabled && endpoint.disabledReason && (
        <p className="field-hint">Enabling it clears the recorded failure and sends new events again.</p>
      )}
      <div className="row">
        <Button type="submit" variant="primary" busy={edit.isPending}>
          Save
        </Button>
        <Button onClick={onDone}>Cancel</Button>
      </div>
    </form>
  );
}
