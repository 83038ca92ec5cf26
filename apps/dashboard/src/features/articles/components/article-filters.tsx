import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import type { ArticleStatus } from '../../../api/articles';
import { publisherChoicesQuery } from '../../../api/publishers';
import { siteChoicesQuery } from '../../../api/sites';
import { Button } from '../../../components/button';
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
  const [q, setQ] = useState(search.q ?? '');
  const [tag, setTag] = useState(search.tag ?? '');
  useEffect(() => setQ(search.q ?? ''), [search.q]);
  useEffect(() => setTag(search.tag ?? ''), [search.tag]);

  const pick = (patch: Partial<ArticlesSearch>) => onChange({ ...search, ...patch, page: undefined });
  function submit(event: FormEvent) {
    event.preventDefault();
    pick({ q: q.trim() || undefined, tag: tag.trim() || undefined });
  }

  return (
    <search>
      <form className="row" onSubmit={submit} aria-label="Filter articles">
        <div className="field">
          <label htmlFor={`${id}-status`}>Status</label>
          <select
            id={`${id}-status`}
            value={search.status ?? ''}
            onChange={(e) => pick({ status: (e.target.value || undefined) as ArticleStatus | undefined })}
          >
            <option value="">All statuses</option>
            {articleStatuses.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-site`}>Site</label>
          <select
            id={`${id}-site`}
            value={search.site ?? ''}
            onChange={(e) => pick({ site: e.target.value || undefined })}
          >
            <option value="">All sites</option>
            {sites.data?.data.map((site) => (
              <option key={site.id} value={site.slug}>
                {site.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-origin`}>Origin</label>
          <select
            id={`${id}-origin`}
            value={search.origin ?? ''}
            onChange={(e) => pick({ origin: e.target.value || undefined })}
          >
            <option value="">Manual and imported</option>
            <option value="manual">Written here</option>
            <option value="imported">Imported (any publisher)</option>
            {publishers.data?.data.map((publisher) => (
              <option key={publisher.id} value={publisher.id}>
                {publisher.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-tag`}>Tag</label>
          <input id={`${id}-tag`} type="search" value={tag} onChange={(e) => setTag(e.target.value)} />
        </div>
        <div className="field" style={{ flex: '1 1 200px' }}>
          <label htmlFor={`${id}-q`}>Title contains</label>
          <input id={`${id}-q`} type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        </div>
        <div className="field">
          <span className="field-label" aria-hidden="true">
            &nbsp;
          </span>
          <Button type="submit">Search</Button>
        </div>
      </form>
    </search>
  );
}
