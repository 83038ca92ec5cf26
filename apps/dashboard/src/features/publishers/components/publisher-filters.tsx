import { useId } from 'react';
import { ChoiceFilter, FilterForm, useFilterText } from '../../../components/filter-fields';
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
  const [text, setText] = useFilterText(search.q);

  return (
    <FilterForm
      label="Filter publishers"
      onSearch={() => onChange({ ...search, q: text.trim() || undefined, page: undefined })}
    >
      <ChoiceFilter
        label="State"
        allLabel="All states"
        choices={publisherStates.map((state) => ({ value: state, label: stateLabels[state] }))}
        value={search.state}
        onChange={(state) =>
          onChange({ ...search, state: state as PublisherState | undefined, page: undefined })
        }
      />
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
    </FilterForm>
  );
}
