import type { Site } from '../../../api/sites';
import { useEditSite } from '../../../api/sites';
import { Button } from '../../../components/button';
import { FormError, SubmitRow } from '../../../components/form/form-error';
import { FormTextField } from '../../../components/form/form-fields';
import { useApiForm } from '../../../components/form/use-api-form';
import { useToast } from '../../../components/toaster';
import { browserAccessBody, siteBody, siteCodeFields, syndicationBody } from './site-fields';
import { SiteIdentityFields } from './site-identity-fields';

/**
 * Rename a site, change its slug, set / clear its domain, and set what its feeds and sitemaps need: the
 * language and how its public article URLs are built; and which browser origins may read its content (CORS)
 * and where it serves its feeds and sitemaps.
 */
export function EditSiteForm({ site, onDone }: { site: Site; onDone(): void }) {
  const toast = useToast();
  const { form, onSubmit, busy, formError } = useApiForm({
    defaultValues: {
      name: site.name,
      slug: site.slug,
      domain: site.domain ?? '',
      language: site.language,
      articleUrlTemplate: site.articleUrlTemplate ?? '',
      publicBaseUrl: site.publicBaseUrl ?? '',
      allowedOrigins: site.allowedOrigins.join(', '),
    },
    toBody: (values) => ({
      ...siteBody(values.name, values.slug, values.domain),
      ...syndicationBody(values.language, values.articleUrlTemplate),
      ...browserAccessBody(values.allowedOrigins, values.publicBaseUrl),
    }),
    schema: 'editSite',
    mutation: useEditSite(site.id),
    codeFields: siteCodeFields,
    onSuccess: (saved) => {
      toast({ kind: 'success', title: `Site “${saved.name}” saved` });
      onDone();
    },
  });
  const { control } = form;
  const slugChanged = form.watch('slug') !== site.slug;

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label={`Edit ${site.name}`}>
      <FormError message={formError} />
      <div className="site-form-grid">
        <SiteIdentityFields
          control={control}
          slugHint={
            slugChanged ? 'Child sites that name this slug must change their configuration too.' : undefined
          }
          domainHint="Leave empty to clear it."
        />
        <FormTextField
          control={control}
          name="language"
          label="Language"
          placeholder="en"
          hint="Named by the Google News sitemap, e.g. en or pt-BR."
        />
        <FormTextField
          control={control}
          name="articleUrlTemplate"
          label="Article URL template"
          placeholder="https://{domain}/news/{slug}"
          hint="Public address of an article, for the site's RSS, JSON Feed and sitemaps. Empty: none."
        />
        <FormTextField
          control={control}
          name="publicBaseUrl"
          label="Public base URL"
          placeholder="https://news.example.com"
          hint="Where the site serves /feed.xml and /sitemap.xml itself. Empty: the template's address."
        />
        <FormTextField
          control={control}
          name="allowedOrigins"
          label="Allowed browser origins"
          placeholder="https://news.example.com, https://www.news.example.com"
          hint="Pages on these origins may read the client API with this site's keys (CORS). Empty: none."
        />
      </div>
      <SubmitRow label="Save" busy={busy}>
        <Button onClick={onDone}>Cancel</Button>
      </SubmitRow>
    </form>
  );
}
