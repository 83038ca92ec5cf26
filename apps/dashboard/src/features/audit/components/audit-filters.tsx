import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { siteChoicesQuery } from '../../../api/sites';
import { ChoiceFilter, FilterForm, useFilterText } from '../../../components/filter-fields';
import type { AuditSearch } from '../routes/audit-search';

const objectTypes = [
  'article',
  'publisher',
  'site',
  'site_key',
  'webhook',
  'webhook_delivery',
  'user',
  'audit_log',
];

/** A date input's day as the start of that day in UTC (the range's `from`), or the start of the next (`to`). */
const dayToInstant = (day: string, end: boolean) => {
  if (!day) return undefined;
  const start = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(start) ? undefined : new Date(start + (end ? 86_400_000 : 0)).toISOString();
};
const instantToDay = (instant: string | undefined, end: boolean) =>
  instant ? new Date(Date.parse(instant) - (end ? 86_400_000 : 0)).toISOString().slice(0, 10) : '';

/** Actor, action, object, site and days; texts go on Search, choices at once (all into the URL). */
export function AuditFilters({
  search,
  onChange,
}: {
  search: AuditSearch;
  onChange(search: AuditSearch): void;
}) {
  const id = useId();
  const sites = useQuery(siteChoicesQuery).data?.data ?? [];
  const [actor, setActor] = useFilterText(search.actor);
  const [action, setAction] = useFilterText(search.action);
  const [objectId, setObjectId] = useFilterText(search.objectId);
  const [from, setFrom] = useState(instantToDay(search.from, false));
  const [to, setTo] = useState(instantToDay(search.to, true));

  return (
    <FilterForm
      label="Filter audit entries"
      onSearch={() =>
        onChange({
          ...search,
          actor: actor.trim() || undefined,
          action: action.trim() || undefined,
          objectId: objectId.trim() || undefined,
          from: dayToInstant(from, false),
          to: dayToInstant(to, true),
        })
      }
    >
      <div className="field">
        <label htmlFor={`${id}-action`}>Action</label>
        <input
          id={`${id}-action`}
          type="search"
          value={action}
          placeholder="e.g. logInFailed"
          onChange={(event) => setAction(event.target.value)}
        />
      </div>
      <ChoiceFilter
        label="Object"
        allLabel="All objects"
        choices={objectTypes.map((type) => ({ value: type, label: type.replace('_', ' ') }))}
        value={search.objectType}
        onChange={(objectType) => onChange({ ...search, objectType })}
      />
      <div className="field">
        <label htmlFor={`${id}-object`}>Object id</label>
        <input
          id={`${id}-object`}
          type="search"
          value={objectId}
          onChange={(event) => setObjectId(event.target.value)}
        />
      </div>
      <ChoiceFilter
        label="Site"
        allLabel="All sites"
        choices={sites.map((site) => ({ value: site.id, label: site.name }))}
        value={search.site}
        onChange={(site) => onChange({ ...search, site })}
      />
      <div className="field">
        <label htmlFor={`${id}-actor`}>Actor (user id)</label>
        <input
          id={`${id}-actor`}
          type="search"
          value={actor}
          onChange={(event) => setActor(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-from`}>From</label>
        <input
          id={`${id}-from`}
          type="date"
          className="input"
          value={from}
          onChange={(event) => setFrom(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-to`}>To</label>
        <input
          id={`${id}-to`}
          type="date"
          className="input"
          value={to}
          onChange={(event) => setTo(event.target.value)}
        />
      </div>
    </FilterForm>
  );
}
