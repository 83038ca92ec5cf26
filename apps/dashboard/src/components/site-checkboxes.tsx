import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, type Ref, useId } from 'react';

/**
 * Child sites chosen by checkbox, by slug (an article's host sites, a publisher's default ones), with the
 * site list's loading, error and empty states. The caller reads the list (each feature through its own API).
 */
/** What the checkboxes read of the site list (`GET /site`). */
export interface SiteChoices {
  data: readonly { id: string; slug: string; name: string }[];
}

export function SiteCheckboxes({
  legend,
  hint,
  sites,
  value,
  onChange,
  error,
  inputRef,
  locked = [],
}: {
  legend: string;
  hint: string;
  sites: UseQueryResult<SiteChoices>;
  value: readonly string[];
  onChange(slugs: string[]): void;
  error?: string | undefined;
  /** The first checkbox (focused when the choice is refused). */
  inputRef?: Ref<HTMLInputElement>;
  /** Slugs shown as they are and not to be changed here (an article's site the user holds no role on). */
  locked?: readonly string[];
}) {
  const id = useId();
  const toggle = (slug: string, on: boolean) =>
    onChange(on ? [...value, slug].sort() : value.filter((s) => s !== slug));
  return (
    <fieldset className="field" aria-describedby={`${id}-hint`}>
      <legend className="field-label">{legend}</legend>
      <span id={`${id}-hint`} className="field-hint">
        {hint}
      </span>
      <SiteChoicesState sites={sites}>
        {(list) => (
          <div className="row" style={{ gap: 'var(--space-4)' }}>
            {list.map((site, index) => (
              <label key={site.id} className="checkbox-field">
                <input
                  ref={index === 0 ? inputRef : undefined}
                  type="checkbox"
                  checked={value.includes(site.slug)}
                  disabled={locked.includes(site.slug)}
                  onChange={(event) => toggle(site.slug, event.target.checked)}
                />
                {site.name}
                {locked.includes(site.slug) && <span className="muted"> (not yours to change)</span>}
              </label>
            ))}
          </div>
        )}
      </SiteChoicesState>
      {error && <span className="field-error">{error}</span>}
    </fieldset>
  );
}

/** The site list's loading, error and empty states, else the choices drawn by `children`. */
export function SiteChoicesState({
  sites,
  children,
}: {
  sites: UseQueryResult<SiteChoices>;
  children(list: SiteChoices['data']): ReactNode;
}) {
  if (sites.isPending) return <span className="muted">Loading sites…</span>;
  if (sites.isError) return <span className="field-error">The site list could not be loaded.</span>;
  if (sites.data.data.length === 0) return <span className="muted">No child sites exist yet.</span>;
  return children(sites.data.data);
}
