import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { PublisherDetail } from '../../../api/publishers';
import { useUpdatePublisher } from '../../../api/publishers';
import { siteChoicesQuery } from '../../../api/sites';
import { Button } from '../../../components/button';
import { TagsInput, tagsToText, textToTags } from '../../../components/tags-input';
import { useToast } from '../../../components/toaster';
import { fieldErrors } from '../../../lib/field-errors';

/** autoApprove, default tags and default host sites (chosen from the child sites). */
export function PublisherSettingsForm({ publisher }: { publisher: PublisherDetail }) {
  const id = useId();
  const toast = useToast();
  const sites = useQuery(siteChoicesQuery);
  const update = useUpdatePublisher(publisher.id);
  const [autoApprove, setAutoApprove] = useState(publisher.autoApprove);
  const [tags, setTags] = useState(tagsToText(publisher.defaultTags));
  const [hostSites, setHostSites] = useState<string[]>(publisher.defaultHostSites);
  const errors = fieldErrors(update.error, ['defaultTags', 'defaultHostSites'] as const, {
    UNKNOWN_SITE: 'defaultHostSites',
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate(
      { autoApprove, defaultTags: textToTags(tags), defaultHostSites: hostSites },
      { onSuccess: () => toast({ kind: 'success', title: 'Settings saved' }) },
    );
  }

  const toggleSite = (slug: string, on: boolean) =>
    setHostSites((current) => (on ? [...current, slug] : current.filter((s) => s !== slug)));

  return (
    <form className="stack" onSubmit={submit} aria-label="Publisher settings">
      <label className="checkbox-field">
        <input type="checkbox" checked={autoApprove} onChange={(e) => setAutoApprove(e.target.checked)} />
        Auto-approve: publish imported articles at once (else they wait in the review queue)
      </label>
      <TagsInput
        label="Default tags"
        value={tags}
        onChange={setTags}
        error={errors.defaultTags}
        hint="Added to every imported article. Separate tags with commas."
      />
      <fieldset className="field" aria-describedby={`${id}-sites-hint`}>
        <legend className="field-label">Default host sites</legend>
        <span id={`${id}-sites-hint`} className="field-hint">
          Imported articles appear on these child sites once published.
        </span>
        {sites.isPending ? (
          <span className="muted">Loading sites…</span>
        ) : sites.isError ? (
          <span className="field-error">The site list could not be loaded.</span>
        ) : sites.data.data.length === 0 ? (
          <span className="muted">No child sites exist yet.</span>
        ) : (
          <div className="row" style={{ gap: 'var(--space-4)' }}>
            {sites.data.data.map((site) => (
              <label key={site.id} className="checkbox-field">
                <input
                  type="checkbox"
                  checked={hostSites.includes(site.slug)}
                  onChange={(e) => toggleSite(site.slug, e.target.checked)}
                />
                {site.name}
              </label>
            ))}
          </div>
        )}
        {errors.defaultHostSites && <span className="field-error">{errors.defaultHostSites}</span>}
      </fieldset>
      <div className="row">
        <Button type="submit" variant="primary" busy={update.isPending}>
          Save settings
        </Button>
      </div>
    </form>
  );
}
