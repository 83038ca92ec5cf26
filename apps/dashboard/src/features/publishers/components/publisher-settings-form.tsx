import { useQuery } from '@tanstack/react-query';
import { useController } from 'react-hook-form';
import type { PublisherDetail } from '../../../api/publishers';
import { useUpdatePublisher } from '../../../api/publishers';
import { siteChoicesQuery } from '../../../api/sites';
import { SubmitRow } from '../../../components/form/form-error';
import { FormCheckbox, FormTagsField } from '../../../components/form/form-fields';
import { useApiForm } from '../../../components/form/use-api-form';
import { SiteCheckboxes } from '../../../components/site-checkboxes';
import { tagsToText, textToTags } from '../../../components/tags-input';
import { useToast } from '../../../components/toaster';

/** autoApprove, default tags and default host sites (chosen from the child sites). */
export function PublisherSettingsForm({ publisher }: { publisher: PublisherDetail }) {
  const toast = useToast();
  const sites = useQuery(siteChoicesQuery);
  const { form, onSubmit, busy } = useApiForm({
    defaultValues: {
      autoApprove: publisher.autoApprove,
      defaultTags: tagsToText(publisher.defaultTags),
      defaultHostSites: publisher.defaultHostSites,
    },
    toBody: (values) => ({ ...values, defaultTags: textToTags(values.defaultTags) }),
    schema: 'updatePublisher',
    mutation: useUpdatePublisher(publisher.id),
    codeFields: { UNKNOWN_SITE: 'defaultHostSites' },
    onSuccess: () => toast({ kind: 'success', title: 'Settings saved' }),
  });
  const hostSites = useController({ control: form.control, name: 'defaultHostSites' });

  return (
    <form className="stack" onSubmit={onSubmit} aria-label="Publisher settings">
      <FormCheckbox control={form.control} name="autoApprove">
        Auto-approve: publish imported articles at once (else they wait in the review queue)
      </FormCheckbox>
      <FormTagsField
        control={form.control}
        name="defaultTags"
        label="Default tags"
        hint="Added to every imported article. Separate tags with commas."
      />
      <SiteCheckboxes
        legend="Default host sites"
        hint="Imported articles appear on these child sites once published."
        sites={sites}
        value={hostSites.field.value}
        onChange={hostSites.field.onChange}
        error={hostSites.fieldState.error?.message}
        inputRef={hostSites.field.ref}
      />
      <SubmitRow label="Save settings" busy={busy} />
    </form>
  );
}
