import { type FormEvent, useState } from 'react';
import type { Site } from '../../../api/sites';
import { useEditSite } from '../../../api/sites';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toaster';
import { errorMessage } from '../../../lib/api-error';
import { fieldErrors } from '../../../lib/field-errors';
import { browserAccessBody, siteBody, siteCodeFields, siteFields, syndicationBody } from './site-fields';

/**
 * Rename a site, change its slug, set / clear its domain, and set what its feeds and sitemaps need: the
 * language and how its public article URLs are built; and which browser origins may read its content (CORS)
 * and where it serves its feeds and sitemaps.
 */
export function EditSiteForm({ site, onDone }: { site: Site; onDone(): void }) {
  const [name, setName] = useState(site.name);
  const [slug, setSlug] = useState(site.slug);
  const [domain, setDomain] = useState(site.domain ?? '');
  const [language, setLanguage] = useState(site.language);
  const [template, setTemplate] = useState(site.articleUrlTemplate ?? '');
  const [origins, setOrigins] = useState(site.allowedOrigins.join(', '));
  const [publicBase, setPublicBase] = useState(site.publicBaseUrl ?? '');
  const edit = useEditSite(site.id);
  const toast = useToast();
  const errors = fieldErrors(edit.error, siteFields, siteCodeFields);
  const unplaced = edit.isError && Object.keys(errors).length === 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    edit.mutate(
      {
        ...siteBody(name, slug, domain),
        ...syndicationBody(language, template),
        ...browserAccessBody(origins, publicBase),
      },
      {
        onSuccess: (saved) => {
          toast({ kind: 'success', title: `Site “${saved.name}” saved` });
          onDone();
        },
      },
    );
  }

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label={`Edit ${site.name}`}>
      {unplaced && (
        <div className="alert alert-error" role="alert">
          {errorMessage(edit.error)}
        </div>
      )}
      <div className="site-form-grid">
        <TextField
          label="Site name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
        />
        <TextField
          label="Slug"
          value={slug}
          onChange={(e) => setSlug(e.target.value)}
          error={errors.slug}
          hint={
            slug !== site.slug
              ? 'Child sites that name this slug must change their configuration too.'
              : undefined
          }
        />
        <TextField
          label="Domain"
          value={domain}
          onChange={(e) => setDomain(e.target.value)}
          error={errors.domain}
          placeholder="news.example.com"
          hint="Leave empty to clear it."
        />
        <TextField
          label="Language"
          value={language}
          onChange={(e) => setLanguage(e.target.value)}
          error={errors.language}
          placeholder="en"
          hint="Named by the Google News sitemap, e.g. en or pt-BR."
        />
        <TextField
          label="Article URL template"
          value={template}
          onChange={(e) => setTemplate(e.target.value)}
          error={errors.articleUrlTemplate}
          placeholder="https://{domain}/news/{slug}"
          hint="Public address of an article, for the site's RSS, JSON Feed and sitemaps. Empty: none."
        />
        <TextField
          label="Public base URL"
          value={publicBase}
          onChange={(e) => setPublicBase(e.target.value)}
          error={errors.publicBaseUrl}
          placeholder="https://news.example.com"
          hint="Where the site serves /feed.xml and /sitemap.xml itself. Empty: the template's address."
        />
        <TextField
          label="Allowed browser origins"
          value={origins}
          onChange={(e) => setOrigins(e.target.value)}
          error={errors.allowedOrigins}
          placeholder="https://news.example.com, https://www.news.example.com"
          hint="Pages on these origins may read the client API with this site's keys (CORS). Empty: none."
        />
      </div>
      <div className="row">
        <Button type="submit" variant="primary" busy={edit.isPending}>
          Save
        </Button>
        <Button onClick={onDone}>Cancel</Button>
      </div>
    </form>
  );
}
