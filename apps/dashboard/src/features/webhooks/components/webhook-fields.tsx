import { useQuery } from '@tanstack/react-query';
import { type Ref, useId } from 'react';
import { siteListQuery } from '../../../api/sites';
import type { WebhookEventType } from '../../../api/webhooks';
import { describedBy, FieldNotes } from '../../../components/field-notes';

/** Every event an endpoint can hear, in words (docs/webhooks.md); typed against the API's list. */
export const webhookEventLabels: Record<WebhookEventType, string> = {
  'article.published': 'an article became visible',
  'article.updated': 'a visible article changed',
  'article.unpublished': 'an article left the view',
  'article.deleted': 'a visible article was deleted',
  'article.corrected': 'a correction was added to a visible article',
  'publisher.feed_failed': "a publisher's feed keeps failing",
};
export const webhookEventTypes = Object.keys(webhookEventLabels) as WebhookEventType[];

/** The error codes that name a field of the webhook forms. */
export const webhookCodeFields = {
  WEBHOOK_URL_REFUSED: 'url',
  INVALID_WEBHOOK_URL: 'url',
} as const;

/** The events to send, as checkboxes (at least one). */
export function WebhookEventsField({
  value,
  onChange,
  error,
  inputRef,
}: {
  value: WebhookEventType[];
  onChange(events: WebhookEventType[]): void;
  error?: string | undefined;
  /** The first checkbox (focused when the events are refused). */
  inputRef?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const toggle = (type: WebhookEventType, on: boolean) =>
    onChange(webhookEventTypes.filter((t) => (t === type ? on : value.includes(t))));
  return (
    <fieldset className="field" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="field-label">Events</legend>
      <div className="webhook-events">
        {webhookEventTypes.map((type, index) => (
          <label key={type} className="checkbox-field">
            <input
              ref={index === 0 ? inputRef : undefined}
              type="checkbox"
              checked={value.includes(type)}
              onChange={(event) => toggle(type, event.target.checked)}
            />
            <span>
              <code>{type}</code>{' '}
              <span className="muted webhook-event-label">{webhookEventLabels[type]}</span>
            </span>
          </label>
        ))}
      </div>
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </fieldset>
  );
}

/** The site scope: the whole network, or one child site (what that site sees). */
export function WebhookSiteField({
  value,
  onChange,
  error,
  inputRef,
}: {
  value: string | null;
  onChange(site: string | null): void;
  error?: string | undefined;
  inputRef?: Ref<HTMLSelectElement>;
}) {
  const id = useId();
  const sites = useQuery(siteListQuery);
  const hint = sites.isError
    ? 'The site list could not be loaded.'
    : 'A site scope sends only what that site shows.';
  return (
    <div className="field">
      <label htmlFor={id}>Site scope</label>
      <select
        id={id}
        ref={inputRef}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
        aria-describedby={describedBy(id, hint, error)}
        aria-invalid={error ? true : undefined}
      >
        <option value="">The whole network</option>
        {sites.data?.data.map((site) => (
          <option key={site.id} value={site.slug}>
            {site.name} ({site.slug})
          </option>
        ))}
      </select>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
