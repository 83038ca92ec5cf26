import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { ArticleStatus } from '../../../api/articles';
import { publisherChoicesQuery } from '../../../api/publishers';
import { siteChoicesQuery } from '../../../api/sites';
import { ChoiceFilter, FilterForm, useFilterText } from '../../../components/filter-fields';
import { type ArticlesSearch, articleStatuses } from '../routes/articles-search';

/** Status, child site, origin (manual, imported, one publisher), tag and title text; all in the URL. */
export function ArticleFilters({
  search,
  onChange,
}: {
  search: ArticlesSearch;
  onChange(search: ArticlesSearch): void;
}) {
  const id = useId();
  const sites = useQuery(siteChoicesQuery);
  const publishers = useQuery(publisherChoicesQuery);
  const [q, setQ] = useFilterText(search.q);
  const [tag, setTag] = useFilterText(search.tag);

  const pick = (patch: Partial<ArticlesSearch>) => onChange({ ...search, ...patch, page: undefined });
  return (
    <FilterForm
      label="Filter articles"
      onSearch={() => pick({ q: q.trim() || undefined, tag: tag.trim() || undefined })}
    >
      <ChoiceFilter
        label="Status"
        allLabel="All statuses"
        choices={articleStatuses.map((status) => ({ value: status, label: status }))}
        value={search.status}
        onChange={(status) => pick({ status: status as ArticleStatus | undefined })}
      />
      <ChoiceFilter
        label="Site"
        allLabel="All sites"
        choices={sites.data?.data.map((site) => ({ value: site.slug, label: site.name })) ?? []}
        value={search.site}
        onChange={(site) => pick({ site })}
      />
      <ChoiceFilter
        label="Origin"
        allLabel="Manual and imported"
        choices={[
          { value: 'manual', label: 'Written here' },
          { value: 'imported', label: 'Imported (any publisher)' },
          ...(publishers.data?.data.map((publisher) => ({ value: publisher.id, label: publisher.name })) ??
            []),
        ]}
        value={search.origin}
        onChange={(origin) => pick({ origin })}
      />
      <div className="field">
        <label htmlFor={`${id}-tag`}>Tag</label>
        <input id={`${id}-tag`} type="search" value={tag} onChange={(e) => setTag(e.target.value)} />
      </div>
      <div className="field" style={{ flex: '1 1 200px' }}>
        <label htmlFor={`${id}-q`}>Title contains</label>
        <input id={`${id}-q`} type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      </div>
    </FilterForm>
  );
}
