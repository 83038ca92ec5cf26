import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { siteChoicesQuery } from '../../../api/sites';

/** The child sites the article appears on once published, by slug. */
export function HostSitesField({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange(slugs: string[]): void;
  error?: string | undefined;
}) {
  const id = useId();
  const sites = useQuery(siteChoicesQuery);
  const toggle = (slug: string, on: boolean) =>
    onChange(on ? [...value, slug].sort() : value.filter((s) => s !== slug));

  return (
    <fieldset className="field" aria-describedby={`${id}-hint`}>
      <legend className="field-label">Host sites</legend>
      <span id={`${id}-hint`} className="field-hint">
        The child sites that show the article once it is published.
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
                checked={value.includes(site.slug)}
                onChange={(event) => toggle(site.slug, event.target.checked)}
              />
              {site.name}
            </label>
          ))}
        </div>
      )}
      {error && <span className="field-error">{error}</span>}
    </fieldset>
  );
}
