import { type FormEvent, useState } from 'react';
import { useCreateSite } from '../../../api/sites';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toaster';
import { errorMessage } from '../../../lib/api-error';
import { fieldErrors } from '../../../lib/field-errors';
import { siteBody, siteCodeFields, siteFields, suggestSlug } from './site-fields';

/** A new child site: name, slug (suggested from the name) and an optional domain. */
export function CreateSiteForm() {
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [domain, setDomain] = useState('');
  const create = useCreateSite();
  const toast = useToast();
  const errors = fieldErrors(create.error, siteFields, siteCodeFields);
  const unplaced = create.isError && Object.keys(errors).length === 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(siteBody(name, slug, domain), {
      onSuccess: (site) => {
        toast({ kind: 'success', title: `Site “${site.name}” created` });
        setName('');
        setSlug('');
        setSlugEdited(false);
        setDomain('');
      },
    });
  }

  return (
    <form className="card stack" onSubmit={submit} noValidate aria-labelledby="new-site-heading">
      <h2 id="new-site-heading">New site</h2>
      {unplaced && (
        <div className="alert alert-error" role="alert">
          {errorMessage(create.error)}
        </div>
      )}
      <div className="site-form-grid">
        <TextField
          label="Site name"
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            if (!slugEdited) setSlug(suggestSlug(event.target.value));
          }}
          error={errors.name}
          required
        />
        <TextField
          label="Slug"
          value={slug}
          onChange={(event) => {
            setSlug(event.target.value);
            setSlugEdited(true);
          }}
          error={errors.slug}
          required
          hint="The name articles use in hostSites, e.g. metro."
        />
        <TextField
          label="Domain"
          value={domain}
          onChange={(event) => setDomain(event.target.value)}
          error={errors.domain}
          placeholder="news.example.com"
          hint="Optional, for reference."
        />
      </div>
      <div className="row">
        <Button type="submit" variant="primary" busy={create.isPending}>
          Create site
        </Button>
      </div>
    </form>
  );
}
