import { type FormEvent, useEffect, useId, useState } from 'react';
import { Button } from '../../../components/button';
import { type PublisherState, type PublishersSearch, publisherStates } from '../routes/publishers-search';
import { stateLabels } from './publisher-state';

/** State filter and search by name or e-mail; both go to the server (and into the URL). */
export function PublisherFilters({
  search,
  onChange,
}: {
  search: PublishersSearch;
  onChange(search: PublishersSearch): void;
}) {
  const id = useId();
  const [text, setText] = useState(search.q ?? '');
  useEffect(() => setText(search.q ?? ''), [search.q]);

  function submit(event: FormEvent) {
    event.preventDefault();
    onChange({ ...search, q: text.trim() || undefined, page: undefined });
  }

  return (
    <search>
      <form className="row" onSubmit={submit} aria-label="Filter publishers">
        <div className="field">
          <label htmlFor={`${id}-state`}>State</label>
          <select
            id={`${id}-state`}
            value={search.state ?? ''}
            onChange={(event) =>
              onChange({
                ...search,
                state: (event.target.value || undefined) as PublisherState | undefined,
                page: undefined,
              })
            }
          >
            <option value="">All states</option>
            {publisherStates.map((state) => (
              <option key={state} value={state}>
                {stateLabels[state]}
              </option>
            ))}
          </select>
        </div>
        <div className="field" style={{ flex: '1 1 220px' }}>
          <label htmlFor={`${id}-q`}>Search</label>
          <input
            id={`${id}-q`}
            type="search"
            placeholder="Name or e-mail"
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
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
