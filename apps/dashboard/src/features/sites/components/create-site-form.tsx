import { useRef } from 'react';
import { useCreateSite } from '../../../api/sites';
import { FormError, SubmitRow } from '../../../components/form/form-error';
import { useApiForm } from '../../../components/form/use-api-form';
import { useToast } from '../../../components/toaster';
import { siteBody, siteCodeFields, suggestSlug } from './site-fields';
import { SiteIdentityFields } from './site-identity-fields';

/** A new child site: name, slug (suggested from the name) and an optional domain. */
export function CreateSiteForm() {
  const toast = useToast();
  // Once the slug is typed, the name no longer suggests it (until the form starts again).
  const slugEdited = useRef(false);
  const { form, onSubmit, busy, formError } = useApiForm({
    defaultValues: { name: '', slug: '', domain: '' },
    toBody: ({ name, slug, domain }) => siteBody(name, slug, domain),
    schema: 'createSite',
    mutation: useCreateSite(),
    codeFields: siteCodeFields,
    onSuccess: (site, _values, reset) => {
      toast({ kind: 'success', title: `Site “${site.name}” created` });
      slugEdited.current = false;
      reset();
    },
  });

  return (
    <form className="card stack" onSubmit={onSubmit} noValidate aria-labelledby="new-site-heading">
      <h2 id="new-site-heading">New site</h2>
      <FormError message={formError} />
      <div className="site-form-grid">
        <SiteIdentityFields
          control={form.control}
          required
          slugHint="The name articles use in hostSites, e.g. metro."
          domainHint="Optional, for reference."
          onNameChange={(name) => {
            if (!slugEdited.current) form.setValue('slug', suggestSlug(name));
          }}
          onSlugChange={() => {
            slugEdited.current = true;
          }}
        />
      </div>
      <SubmitRow label="Create site" busy={busy} />
    </form>
  );
}
