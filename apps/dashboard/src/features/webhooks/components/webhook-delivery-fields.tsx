import { type Control, useController } from 'react-hook-form';
import type { WebhookEventType } from '../../../api/webhooks';
import { FormCheckbox } from '../../../components/form/form-fields';
import { WebhookEventsField, WebhookSiteField } from './webhook-fields';

/** What an endpoint hears, from which site, and whether it is sent: both webhook forms hold these. */
export interface WebhookDeliveryValues {
  events: WebhookEventType[];
  site: string | null;
  enabled: boolean;
}

/** The events, the site scope and "Enabled", bound to a webhook form. */
export function WebhookDeliveryFields<V extends WebhookDeliveryValues>({ control }: { control: Control<V> }) {
  // A form of any values that hold these three: their names are known to exist.
  const delivery = control as unknown as Control<WebhookDeliveryValues>;
  const events = useController({ control: delivery, name: 'events' });
  const site = useController({ control: delivery, name: 'site' });
  return (
    <>
      <WebhookEventsField
        value={events.field.value}
        onChange={events.field.onChange}
        error={events.fieldState.error?.message}
        inputRef={events.field.ref}
      />
      <div className="webhook-form-grid">
        <WebhookSiteField
          value={site.field.value}
          onChange={site.field.onChange}
          error={site.fieldState.error?.message}
          inputRef={site.field.ref}
        />
        <FormCheckbox control={delivery} name="enabled">
          Enabled: send events
        </FormCheckbox>
      </div>
    </>
  );
}
