import { useQuery } from '@tanstack/react-query';
import { siteChoicesQuery } from '../../../api/sites';
import { SiteCheckboxes } from '../../../components/site-checkboxes';

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
  return (
    <SiteCheckboxes
      legend="Host sites"
      hint="The child sites that show the article once it is published."
      sites={useQuery(siteChoicesQuery)}
      value={value}
      onChange={onChange}
      error={error}
    />
  );
}
