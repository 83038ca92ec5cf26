import { type FormEvent, useState } from 'react';
import type { WebhookEventType } from '../../../api/webhooks';
import { useCreateWebhook } from '../../../api/webhooks';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toaster';
import { errorMessage } from '../../../lib/api-error';
import { fieldErrors } from '../../../lib/field-errors';
import {
  WebhookEventsField,
  WebhookSiteField,
  webhookCodeFields,
  webhookEventTypes,
  webhookFields,
} from './webhook-fields';
import { WebhookSecretNotice } from './webhook-secret-notice';

/** A new endpoint: URL, events, scope, enabled; then its signing secret, shown once. */
export function CreateWebhookForm() {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(webhookEventTypes);
  const [site, setSite] = useState<string | null>(null);
  const [enabled, setEnabled] = useState(true);
  const create = useCreateWebhook();
  const toast = useToast();
  const errors = fieldErrors(create.error, webhookFields, webhookCodeFields);
  const unplaced = create.isError && Object.keys(errors).length === 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { url: url.trim(), events, site, enabled },
      {
        onSuccess: (endpoint) => {
          toast({ kind: 'success', title: `Endpoint ${endpoint.url} registered` });
          setUrl('');
          setEvents(webhookEventTypes);
          setSite(null);
          setEnabled(true);
        },
      },
    );
  }

  return (
    <form className="card stack" onSubmit={submit} noValidate aria-labelledby="new-webhook-heading">
      <h2 id="new-webhook-heading">New endpoint</h2>
      {create.data && <WebhookSecretNotice secret={create.data.secret} onDone={() => create.reset()} />}
      {unplaced && (
        <div className="alert alert-error" role="alert">
          {errorMessage(create.error)}
        </div>
      )}
      <TextField
        label="URL"
        type="url"
        value={url}
        onChange={(event) => setUrl(event.target.value)}
        error={errors.url}
        placeholder="https://news.example.com/hooks/newsroom"
        hint="Where the events are POSTed. Private and internal addresses are refused."
        required
      />
      <WebhookEventsField value={events} onChange={setEvents} error={errors.events} />
      <div className="webhook-form-grid">
        <WebhookSiteField value={site} onChange={setSite} error={errors.site} />
        <label className="checkbox-field">
          <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />
          Enabled: send events
        </label>
      </div>
      <div className="row">
        <Button type="submit" variant="primary" busy={create.isPending}>
          Register endpoint
        </Button>
      </div>
    </form>
  );
}
