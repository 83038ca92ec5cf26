import { useQuery } from '@tanstack/react-query';
import { usePolicyViewer } from '../../../api/permissions';
import { siteChoicesQuery } from '../../../api/sites';
import { SiteCheckboxes } from '../../../components/site-checkboxes';
import { policyAllows } from '../../../lib/policy';

/**
 * The child sites the article appears on once published, by slug: the sites the policy lets this user host an
 * article on (its grants; every site for an administrator), and those the article already has. One of those the
 * user holds no role on stays as it is (the API refuses adding or taking off such a site; keeping it is fine).
 */
export function HostSitesField({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange(slugs: string[]): void;
  error?: string | undefined;
}) {
  const viewer = usePolicyViewer();
  const mayHost = (slug: string) =>
    viewer !== undefined && policyAllows(viewer, 'createArticle', undefined, [slug]);
  const sites = useQuery({
    ...siteChoicesQuery,
    select: (list) => ({
      ...list,
      data: list.data.filter((site) => value.includes(site.slug) || mayHost(site.slug)),
    }),
  });
  const locked = viewer === undefined ? [] : value.filter((slug) => !mayHost(slug));
  return (
    <SiteCheckboxes
      legend="Host sites"
      hint="The child sites that show the article once it is published."
      sites={sites}
      value={value}
      onChange={onChange}
      error={error}
      locked={locked}
    />
  );
}
